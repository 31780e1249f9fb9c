// Hand-assembled protobuf wire format for xDS responses, from cached Any bytes: a response costs one
// buffer copy per resource instead of a protobuf-es message tree (see grpc-xds-client-notes.md, "manual-concat").
// Field numbers are those of envoy/service/discovery/v3/discovery.proto and google/protobuf/any.proto.

import { uninitializedBytes } from '../lib/bytes';

const enc = new TextEncoder();
const LEN = 2; // wire type: length-delimited

/** Bytes of a varint. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** A growable list of chunks that is concatenated once. */
export class WireWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  private varint(n: number): void {
    const out = new Uint8Array(varintSize(n));
    let i = 0;
    while (n >= 0x80) {
      out[i++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    out[i] = n;
    this.push(out);
  }

  private push(b: Uint8Array): void {
    if (b.length === 0) return;
    this.chunks.push(b);
    this.size += b.length;
  }

  /** Bytes that are already whole fields (tag included). */
  raw(b: Uint8Array): this {
    this.push(b);
    return this;
  }

  /** A length-delimited field (bytes, string, or embedded message). Empty strings are omitted (proto3). */
  bytes(field: number, b: Uint8Array, keepEmpty = false): this {
    if (b.length === 0 && !keepEmpty) return this;
    this.varint((field << 3) | LEN);
    this.varint(b.length);
    this.push(b);
    return this;
  }

  string(field: number, s: string | undefined): this {
    if (!s) return this;
    return this.bytes(field, enc.encode(s));
  }

  /** An embedded message written by `fill` (always emitted, even when empty, like a set message field). */
  message(field: number, fill: (w: WireWriter) => void): this {
    const inner = new WireWriter();
    fill(inner);
    return this.bytes(field, inner.finish(), true);
  }

  finish(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const out = uninitializedBytes(this.size);
    let off = 0;
    for (const c of this.chunks) {
      out.set(c, off);
      off += c.length;
    }
    return out;
  }
}

/** google.protobuf.Any { type_url = 1; value = 2 } */
export function encodeAny(typeUrl: string, value: Uint8Array): Uint8Array {
  return new WireWriter().string(1, typeUrl).bytes(2, value).finish();
}

export interface SotwResponseParts {
  versionInfo: string;
  /** Encoded google.protobuf.Any messages. */
  anys: readonly Uint8Array[];
  typeUrl: string;
  nonce: string;
  controlPlane?: string;
}

/**
 * DiscoveryResponse { version_info = 1; repeated Any resources = 2; type_url = 4; nonce = 5;
 * ControlPlane control_plane = 6 }.
 */
export function encodeDiscoveryResponse(p: SotwResponseParts): Uint8Array {
  // One allocation, sized first: the Any bytes (shared by every stream sending them) are copied once, the strings
  // written in place (no per-string buffer: a connect wave assembles thousands of responses).
  const version = utf8Length(p.versionInfo);
  const typeUrl = utf8Length(p.typeUrl);
  const nonce = utf8Length(p.nonce);
  const cp = p.controlPlane ? utf8Length(p.controlPlane) : 0;
  const cpInner = optionalSize(cp);
  let size = optionalSize(version) + optionalSize(typeUrl) + optionalSize(nonce) + (cp > 0 ? fieldSize(cpInner) : 0);
  for (const a of p.anys) size += fieldSize(a.length);
  const out = uninitializedBytes(size);
  let off = putString(out, 0, 1, p.versionInfo, version);
  for (const a of p.anys) off = putField(out, off, 2, a);
  off = putString(out, off, 4, p.typeUrl, typeUrl);
  off = putString(out, off, 5, p.nonce, nonce);
  if (cp > 0) {
    off = putTagLength(out, off, 6, cpInner);
    off = putString(out, off, 1, p.controlPlane!, cp);
  }
  return written(out, off, 'DiscoveryResponse');
}

/** UTF-8 length of `s` (ASCII counted in JS: the strings here are short and mostly ASCII). */
export function utf8Length(s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  return n;
}

/** Bytes of a length-delimited field with a one-byte tag (field numbers < 16). */
const fieldSize = (n: number): number => 1 + varintSize(n) + n;
/** proto3: an empty string is not written. */
const optionalSize = (n: number): number => (n === 0 ? 0 : fieldSize(n));

function putTagLength(out: Uint8Array, off: number, field: number, n: number): number {
  out[off++] = (field << 3) | LEN;
  while (n >= 0x80) {
    out[off++] = (n % 128) | 0x80;
    n = Math.floor(n / 128);
  }
  out[off++] = n;
  return off;
}

function putField(out: Uint8Array, off: number, field: number, b: Uint8Array): number {
  off = putTagLength(out, off, field, b.length);
  out.set(b, off);
  return off + b.length;
}

/** A string field of `len` UTF-8 bytes written in place; proto3: not written when empty (unless `keepEmpty`). */
function putString(out: Uint8Array, off: number, field: number, s: string, len: number, keepEmpty = false): number {
  if (len === 0 && !keepEmpty) return off;
  off = putTagLength(out, off, field, len);
  if (len === s.length) {
    for (let i = 0; i < len; i++) out[off + i] = s.charCodeAt(i);
  } else enc.encodeInto(s, out.subarray(off, off + len));
  return off + len;
}

/** The assembled buffer is not zeroed: every byte of it must have been written. */
function written(out: Uint8Array, off: number, what: string): Uint8Array {
  if (off !== out.length) throw new Error(`internal: ${what} sized ${out.length} bytes, ${off} written`);
  return out;
}

/** Size of a DiscoveryResponse before building it (to refuse oversize responses cheaply). */
export function discoveryResponseSize(p: Omit<SotwResponseParts, 'anys'> & { anySizes: readonly number[] }): number {
  let size = optionalSize(utf8Length(p.versionInfo)) + optionalSize(utf8Length(p.typeUrl)) + optionalSize(utf8Length(p.nonce));
  for (const n of p.anySizes) size += fieldSize(n);
  if (p.controlPlane) size += fieldSize(optionalSize(utf8Length(p.controlPlane)));
  return size;
}

export interface DeltaResourcePart {
  name: string;
  version: string;
  /** Encoded google.protobuf.Any. */
  any: Uint8Array;
}

export interface DeltaResponseParts {
  systemVersionInfo: string;
  resources: readonly DeltaResourcePart[];
  typeUrl: string;
  nonce: string;
  removed: readonly string[];
  controlPlane?: string;
}

/**
 * DeltaDiscoveryResponse { system_version_info = 1; repeated Resource resources = 2; type_url = 4;
 * nonce = 5; repeated string removed_resources = 6; ControlPlane control_plane = 7 },
 * Resource { version = 1; Any resource = 2; name = 3 }.
 */
export function encodeDeltaDiscoveryResponse(p: DeltaResponseParts): Uint8Array {
  return encodeDeltaFromEntries({ ...p, entries: p.resources.map((r) => encodeDeltaResourceEntry(r.name, r.version, r.any)) });
}

/** One `resources` entry of a DeltaDiscoveryResponse (field 2: tag, length, Resource), cacheable per resource version. */
export function encodeDeltaResourceEntry(name: string, version: string, any: Uint8Array): Uint8Array {
  return new WireWriter().message(2, (rw) => rw.string(1, version).bytes(2, any, true).string(3, name)).finish();
}

/** encodeDeltaDiscoveryResponse with the resources already encoded by encodeDeltaResourceEntry (one allocation, like SotW's). */
export function encodeDeltaFromEntries(p: Omit<DeltaResponseParts, 'resources'> & { entries: readonly Uint8Array[] }): Uint8Array {
  const system = utf8Length(p.systemVersionInfo);
  const typeUrl = utf8Length(p.typeUrl);
  const nonce = utf8Length(p.nonce);
  const removed = p.removed.map(utf8Length);
  const cp = p.controlPlane ? utf8Length(p.controlPlane) : 0;
  const cpInner = optionalSize(cp);
  let size = optionalSize(system) + optionalSize(typeUrl) + optionalSize(nonce) + (cp > 0 ? fieldSize(cpInner) : 0);
  for (const e of p.entries) size += e.length;
  for (const n of removed) size += fieldSize(n);
  const out = uninitializedBytes(size);
  let off = putString(out, 0, 1, p.systemVersionInfo, system);
  for (const e of p.entries) {
    out.set(e, off);
    off += e.length;
  }
  off = putString(out, off, 4, p.typeUrl, typeUrl);
  off = putString(out, off, 5, p.nonce, nonce);
  p.removed.forEach((name, i) => {
    off = putString(out, off, 6, name, removed[i]!, true);
  });
  if (cp > 0) {
    off = putTagLength(out, off, 7, cpInner);
    off = putString(out, off, 1, p.controlPlane!, cp);
  }
  return written(out, off, 'DeltaDiscoveryResponse');
}
