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

export interface SotwResponseParts {
  versionInfo: string;
  /** Encoded google.protobuf.Any messages. */
  anys: readonly Uint8Array[];
  typeUrl: string;
  nonce: string;
  controlPlane?: string;
}

/**
 * A response sized now and written later, into a buffer of at least `size` bytes: by the gRPC serializer
 * (service.ts), into a scratch buffer grpc-js copies from at once, so the ADS server allocates no buffer of its
 * own per response (grpc-js' framing copies it anyway). `writeTo` may run more than once; it reads the parts it
 * was given, which must not change.
 */
export interface WireMessage {
  readonly size: number;
  writeTo(out: Uint8Array): void;
}

/** A WireMessage's bytes in a buffer of their own. */
export function toBytes(m: WireMessage): Uint8Array {
  const out = uninitializedBytes(m.size);
  m.writeTo(out);
  return out;
}

/** The strings of a response envelope (type URL, nonce, version, control plane), measured once. */
class Envelope {
  readonly version: number;
  readonly typeUrl: number;
  readonly nonce: number;
  readonly cp: number;
  constructor(
    readonly p: { typeUrl: string; nonce: string; controlPlane?: string },
    version: string,
  ) {
    this.version = utf8Length(version);
    this.typeUrl = utf8Length(p.typeUrl);
    this.nonce = utf8Length(p.nonce);
    this.cp = p.controlPlane ? utf8Length(p.controlPlane) : 0;
  }
  /** Bytes of version_info, type_url, nonce and control_plane. */
  get size(): number {
    return (
      optionalSize(this.version) + optionalSize(this.typeUrl) + optionalSize(this.nonce) + (this.cp > 0 ? fieldSize(fieldSize(this.cp)) : 0)
    );
  }
  /** type_url (4) and nonce (5). */
  putTypeAndNonce(out: Uint8Array, off: number): number {
    off = putString(out, off, 4, this.p.typeUrl, this.typeUrl);
    return putString(out, off, 5, this.p.nonce, this.nonce);
  }
  /** ControlPlane { identifier = 1 } as field `field`, when there is one. */
  putControlPlane(out: Uint8Array, off: number, field: number): number {
    if (this.cp === 0) return off;
    off = putTagLength(out, off, field, fieldSize(this.cp));
    return putString(out, off, 1, this.p.controlPlane!, this.cp);
  }
}

/**
 * DiscoveryResponse { version_info = 1; repeated Any resources = 2; type_url = 4; nonce = 5;
 * ControlPlane control_plane = 6 }: the Any bytes (shared by every stream sending them) copied once, the strings
 * written in place (no per-string buffer: a connect wave assembles thousands of responses).
 */
export function sotwResponse(p: SotwResponseParts): WireMessage {
  const env = new Envelope(p, p.versionInfo);
  let size = env.size;
  for (const a of p.anys) size += fieldSize(a.length);
  return {
    size,
    writeTo(out) {
      let off = putString(out, 0, 1, p.versionInfo, env.version);
      for (const a of p.anys) off = putField(out, off, 2, a);
      off = env.putTypeAndNonce(out, off);
      written(size, env.putControlPlane(out, off, 6), 'DiscoveryResponse');
    },
  };
}

/** sotwResponse's bytes. */
export const encodeDiscoveryResponse = (p: SotwResponseParts): Uint8Array => toBytes(sotwResponse(p));

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

/** The buffers written into are not zeroed: every byte of the message must have been written. */
function written(size: number, off: number, what: string): void {
  if (off !== size) throw new Error(`internal: ${what} sized ${size} bytes, ${off} written`);
}

/** Size of a DiscoveryResponse before building it (to refuse oversize responses cheaply). */
export function discoveryResponseSize(p: Omit<SotwResponseParts, 'anys'> & { anySizes: readonly number[] }): number {
  let size = optionalSize(utf8Length(p.versionInfo)) + optionalSize(utf8Length(p.typeUrl)) + optionalSize(utf8Length(p.nonce));
  for (const n of p.anySizes) size += fieldSize(n);
  if (p.controlPlane) size += fieldSize(optionalSize(utf8Length(p.controlPlane)));
  return size;
}

/** A DeltaDiscoveryResponse's fields but its resources (each an entry of encodeResourceWire). */
export interface DeltaEnvelope {
  systemVersionInfo: string;
  typeUrl: string;
  nonce: string;
  removed: readonly string[];
  controlPlane?: string;
}

/** A resource's two wire forms in one buffer: its Delta `resources` entry, and its Any as a view into that entry. */
export interface ResourceWire {
  /** DeltaDiscoveryResponse field 2: tag, length, Resource { version = 1; Any resource = 2; name = 3 }. */
  entry: Uint8Array;
  /** The entry's google.protobuf.Any { type_url = 1; value = 2 }: a DiscoveryResponse's `resources` item. */
  any: Uint8Array;
}

/**
 * A DeltaDiscoveryResponse `resources` entry (Resource { version = 1; Any resource = 2; name = 3 }) with its
 * Any { type_url = 1; value = 2 } written at once into one buffer, the Any a subarray of it: a resource sent by both protocols (or either) costs one allocation and one copy of its bytes.
 */
export function encodeResourceWire(name: string, version: string, typeUrl: string, value: Uint8Array): ResourceWire {
  const lengths = { version: utf8Length(version), typeUrl: utf8Length(typeUrl), name: utf8Length(name) };
  const anySize = optionalSize(lengths.typeUrl) + optionalSize(value.length);
  const resourceSize = optionalSize(lengths.version) + fieldSize(anySize) + optionalSize(lengths.name);
  const entry = uninitializedBytes(fieldSize(resourceSize));
  let off = putTagLength(entry, 0, 2, resourceSize);
  off = putString(entry, off, 1, version, lengths.version);
  off = putTagLength(entry, off, 2, anySize);
  const anyAt = off;
  off = putString(entry, off, 1, typeUrl, lengths.typeUrl);
  if (value.length > 0) off = putField(entry, off, 2, value);
  const any = entry.subarray(anyAt, off);
  written(entry.length, putString(entry, off, 3, name, lengths.name), 'Resource');
  return { entry, any };
}

/**
 * DeltaDiscoveryResponse { system_version_info = 1; repeated Resource resources = 2; type_url = 4; nonce = 5;
 * repeated string removed_resources = 6; ControlPlane control_plane = 7 } whose resources are already encoded
 * entries (encodeResourceWire; see sotwResponse).
 */
export function deltaResponse(p: DeltaEnvelope & { entries: readonly Uint8Array[] }): WireMessage {
  const env = new Envelope(p, p.systemVersionInfo);
  const removed = p.removed.map(utf8Length);
  let size = env.size;
  for (const e of p.entries) size += e.length;
  for (const n of removed) size += fieldSize(n);
  return {
    size,
    writeTo(out) {
      let off = putString(out, 0, 1, p.systemVersionInfo, env.version);
      for (const e of p.entries) {
        out.set(e, off);
        off += e.length;
      }
      off = env.putTypeAndNonce(out, off);
      for (let i = 0; i < removed.length; i++) off = putString(out, off, 6, p.removed[i]!, removed[i]!, true);
      written(size, env.putControlPlane(out, off, 7), 'DeltaDiscoveryResponse');
    },
  };
}

/** deltaResponse's bytes. */
export const encodeDeltaFromEntries = (p: DeltaEnvelope & { entries: readonly Uint8Array[] }): Uint8Array => toBytes(deltaResponse(p));

/**
 * A buffer the gRPC serializer writes each WireMessage into just before grpc-js copies it into its frame
 * (serializeMessage: serialize, then copy, synchronously), reused for the next: responses up to `max` bytes cost
 * no allocation of their own. One per server. Larger ones get their own buffer.
 */
export class WireScratch {
  private buf: Uint8Array | undefined;
  constructor(private readonly max = 4 * 1024 * 1024) {}
  /** `m`'s bytes, valid until the next call. */
  bytes(m: WireMessage): Uint8Array {
    if (m.size > this.max) return toBytes(m);
    if (!this.buf || this.buf.length < m.size)
      this.buf = uninitializedBytes(Math.min(this.max, Math.max(64 * 1024, 2 ** Math.ceil(Math.log2(m.size)))));
    const out = this.buf.subarray(0, m.size);
    m.writeTo(out);
    return out;
  }
}
