// Hand-assembled protobuf wire format for xDS responses, from cached Any bytes: a response costs one
// buffer copy per resource instead of a protobuf-es message tree (see grpc-xds-client-notes.md, "manual-concat").
// Field numbers are those of envoy/service/discovery/v3/discovery.proto and google/protobuf/any.proto.

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
    const out = new Uint8Array(this.size);
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
  // One allocation, sized first: the Any bytes (shared by every stream sending them) are copied once.
  const version = enc.encode(p.versionInfo);
  const typeUrl = enc.encode(p.typeUrl);
  const nonce = enc.encode(p.nonce);
  const cp = p.controlPlane ? enc.encode(p.controlPlane) : undefined;
  const cpInner = cp && cp.length > 0 ? fieldSize(cp.length) : 0;
  let size = optionalSize(version) + optionalSize(typeUrl) + optionalSize(nonce) + (cp ? fieldSize(cpInner) : 0);
  for (const a of p.anys) size += fieldSize(a.length);
  const out = new Uint8Array(size);
  let off = putOptional(out, 0, 1, version);
  for (const a of p.anys) off = putField(out, off, 2, a);
  off = putOptional(out, off, 4, typeUrl);
  off = putOptional(out, off, 5, nonce);
  if (cp) {
    off = putTagLength(out, off, 6, cpInner);
    off = putOptional(out, off, 1, cp);
  }
  return out;
}

/** Bytes of a length-delimited field with a one-byte tag (field numbers < 16). */
const fieldSize = (n: number): number => 1 + varintSize(n) + n;
/** proto3: an empty string is not written. */
const optionalSize = (b: Uint8Array): number => (b.length === 0 ? 0 : fieldSize(b.length));

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

const putOptional = (out: Uint8Array, off: number, field: number, b: Uint8Array): number =>
  b.length === 0 ? off : putField(out, off, field, b);

/** Size of a DiscoveryResponse before building it (to refuse oversize responses cheaply). */
export function discoveryResponseSize(p: Omit<SotwResponseParts, 'anys'> & { anySizes: readonly number[] }): number {
  const str = (field: number, s: string | undefined) => {
    if (!s) return 0;
    const n = enc.encode(s).length;
    return varintSize((field << 3) | LEN) + varintSize(n) + n;
  };
  let size = str(1, p.versionInfo) + str(4, p.typeUrl) + str(5, p.nonce);
  for (const n of p.anySizes) size += 1 + varintSize(n) + n;
  if (p.controlPlane) {
    const inner = str(1, p.controlPlane);
    size += 1 + varintSize(inner) + inner;
  }
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

/** encodeDeltaDiscoveryResponse with the resources already encoded by encodeDeltaResourceEntry. */
export function encodeDeltaFromEntries(p: Omit<DeltaResponseParts, 'resources'> & { entries: readonly Uint8Array[] }): Uint8Array {
  const w = new WireWriter().string(1, p.systemVersionInfo);
  for (const e of p.entries) w.raw(e);
  w.string(4, p.typeUrl).string(5, p.nonce);
  for (const name of p.removed) w.bytes(6, enc.encode(name), true);
  if (p.controlPlane) w.message(7, (cp) => cp.string(1, p.controlPlane));
  return w.finish();
}
