// What the bench's ADS clients read of a response and write back, straight on the protobuf wire: a client reads only
// what an xDS client must (of every response its head, bench/xdsHead.ts; of its first CDS response which clusters are
// EDS and their names, copied into the EDS request, `encodeEdsNames`; of its first LDS response the RDS
// route_config names inside each HttpConnectionManager; the sample's wire reading, `readSotwResponse` /
// `readDeltaResponse`, has each resource's name — and version in Delta) and ACKs with a hand-encoded
// DiscoveryRequest / DeltaDiscoveryRequest. Decoding every response with protobuf-es cost the bench's
// client process as much CPU as the server it measures (a real Envoy fleet runs on other machines); the full decode
// is kept for a sample (bench/issueClients.ts) and bench/xdsWire.test.ts compares both against protobuf-es.
// Field numbers: envoy/service/discovery/v3/discovery.proto, google/protobuf/any.proto, envoy/config/cluster/v3/
// cluster.proto (name 1, type 2), envoy/config/listener/v3/listener.proto (filter_chains 3, default_filter_chain
// 25), listener_components.proto (FilterChain.filters 3; Filter.typed_config 4), http_connection_manager.proto
// (HttpConnectionManager.rds 3; Rds.route_config_name 2), envoy/config/core/v3/base.proto (Node.id 1).
import { EXT } from '../server/envoy/typeUrls';

const utf8 = new TextDecoder();
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/**
 * A cursor over the top-level fields of `b[start, end)`: `next()` steps to the next field and sets `field`,
 * `wt` and, for a length-delimited field, its payload's bounds `s`/`e` (for a varint, `s` is where it starts).
 * A loop, not callbacks: the bench's clients read ~300 resources per response, 4,000 responses per wave.
 */
export class Fields {
  field = 0;
  wt = 0;
  s = 0;
  e = 0;
  private pos: number;

  constructor(
    readonly b: Uint8Array,
    start = 0,
    private end = b.length,
  ) {
    this.pos = start;
  }

  /** Re-aims the cursor at `b[start, end)` (one cursor serves every resource of a response: no garbage per resource). */
  reset(start: number, end: number): this {
    this.pos = start;
    this.end = end;
    return this;
  }

  private varint(): number {
    const b = this.b;
    const end = this.end;
    let p = this.pos;
    if (p >= end) throw new Error('truncated varint');
    let x = b[p++]!;
    if (x < 0x80) {
      this.pos = p;
      return x;
    }
    // Up to 4 bytes (28 bits) in int32 arithmetic: tags and lengths; no Math.pow per byte (a client profile had
    // ieee754::pow at 4 % of the main thread with `2 ** shift`).
    let n = x & 0x7f;
    for (let shift = 7; shift < 28; shift += 7) {
      if (p >= end) throw new Error('truncated varint');
      x = b[p++]!;
      n |= (x & 0x7f) << shift;
      if (x < 0x80) {
        this.pos = p;
        return n;
      }
    }
    // Bytes 5–10: doubles (exact to 2^53, as before).
    for (let mul = 2 ** 28; ; mul *= 128) {
      if (p >= end || mul > 2 ** 63) throw new Error('truncated varint');
      x = b[p++]!;
      n += (x & 0x7f) * mul;
      if (x < 0x80) {
        this.pos = p;
        return n;
      }
    }
  }

  next(): boolean {
    if (this.pos >= this.end) return false;
    const tag = this.varint();
    this.field = Math.floor(tag / 8);
    this.wt = tag & 7;
    this.s = this.pos;
    if (this.wt === VARINT) this.varint();
    else if (this.wt === I64) this.pos += 8;
    else if (this.wt === I32) this.pos += 4;
    else if (this.wt === LEN) {
      const len = this.varint();
      this.s = this.pos;
      this.pos += len;
    } else throw new Error(`wire type ${this.wt} of field ${this.field}`);
    if (this.pos > this.end) throw new Error(`truncated field ${this.field}`);
    this.e = this.pos;
    return true;
  }

  /** The current field is `field`, length-delimited. */
  is(field: number): boolean {
    return this.field === field && this.wt === LEN;
  }

  str(): string {
    return str(this.b, this.s, this.e);
  }

  /** The current varint field's value. */
  uint(): number {
    let n = 0;
    for (let i = this.s, mul = 1; i < this.e; i++, mul *= 128) n += (this.b[i]! & 0x7f) * mul;
    return n;
  }
}

const str = (b: Uint8Array, s: number, e: number): string =>
  Buffer.isBuffer(b) ? b.toString('utf8', s, e) : utf8.decode(b.subarray(s, e));

/** A resource as a client reads it: its name and where the resource message (Any.value) is in the response. */
export interface WireResource {
  name: string;
  /** Delta: Resource.version. */
  version?: string;
  start: number;
  end: number;
}

export interface WireResponse {
  /** The response's bytes (resources point into them). */
  bytes: Uint8Array;
  typeUrl: string;
  /** SotW version_info / Delta system_version_info. */
  version: string;
  nonce: string;
  resources: WireResource[];
  /** Delta removed_resources. */
  removed: string[];
}

/** A resource's bytes (a copy-free view). */
export const resourceBytes = (r: WireResponse, x: WireResource): Uint8Array => r.bytes.subarray(x.start, x.end);

/** field 1 of a resource in b[s, e) (Cluster/Listener/RouteConfiguration name, ClusterLoadAssignment cluster_name). */
export function resourceNameOf(b: Uint8Array, s = 0, e = b.length): string {
  return nameIn(new Fields(b, s, e));
}

/** Field 1 (a string) of the message the cursor is aimed at, or ''. */
function nameIn(f: Fields): string {
  while (f.next()) if (f.is(1)) return f.str();
  return '';
}

/** Reads the resource (an Any's value, field 2) in the Any the cursor `g` is aimed at, re-aiming `g` to read its name. */
function resourceIn(g: Fields, e: number): { name: string; start: number; end: number } {
  let start = e;
  let end = e;
  while (g.next())
    if (g.is(2)) {
      start = g.s;
      end = g.e;
    }
  return { name: nameIn(g.reset(start, end)), start, end };
}

/** Any { type_url = 1; value = 2 } in b[s, e): the type URL (when `withType`) and the value's bounds. */
function anyIn(b: Uint8Array, s: number, e: number, withType: boolean): { typeUrl: string; start: number; end: number } {
  const f = new Fields(b, s, e);
  const out = { typeUrl: '', start: e, end: e };
  while (f.next()) {
    if (f.is(1) && withType) out.typeUrl = f.str();
    else if (f.is(2)) {
      out.start = f.s;
      out.end = f.e;
    }
  }
  return out;
}

/** A DiscoveryResponse: version_info 1, resources 2 (Any), type_url 4, nonce 5. */
export function readSotwResponse(b: Uint8Array): WireResponse {
  const r: WireResponse = { bytes: b, typeUrl: '', version: '', nonce: '', resources: [], removed: [] };
  const f = new Fields(b);
  const g = new Fields(b);
  while (f.next()) {
    if (f.wt !== LEN) continue;
    if (f.field === 1) r.version = f.str();
    else if (f.field === 2) r.resources.push(resourceIn(g.reset(f.s, f.e), f.e));
    else if (f.field === 4) r.typeUrl = f.str();
    else if (f.field === 5) r.nonce = f.str();
  }
  return r;
}

/** A DeltaDiscoveryResponse: system_version_info 1, resources 2 (Resource: version 1, resource 2, name 3), type_url 4, nonce 5, removed_resources 6. */
export function readDeltaResponse(b: Uint8Array): WireResponse {
  const r: WireResponse = { bytes: b, typeUrl: '', version: '', nonce: '', resources: [], removed: [] };
  const f = new Fields(b);
  const rf = new Fields(b);
  const g = new Fields(b);
  while (f.next()) {
    if (f.wt !== LEN) continue;
    if (f.field === 1) r.version = f.str();
    else if (f.field === 2) {
      const x: WireResource = { name: '', version: '', start: f.e, end: f.e };
      rf.reset(f.s, f.e);
      while (rf.next()) {
        if (rf.is(1)) x.version = rf.str();
        else if (rf.is(2)) {
          // Any.value (field 2); the name is Resource.name's
          x.start = rf.e;
          x.end = rf.e;
          g.reset(rf.s, rf.e);
          while (g.next())
            if (g.is(2)) {
              x.start = g.s;
              x.end = g.e;
            }
        } else if (rf.is(3)) x.name = rf.str();
      }
      r.resources.push(x);
    } else if (f.field === 4) r.typeUrl = f.str();
    else if (f.field === 5) r.nonce = f.str();
    else if (f.field === 6) r.removed.push(f.str());
  }
  return r;
}

/** Cluster.type (field 2) in b[s, e) is EDS (3). */
export function isEdsCluster(b: Uint8Array, s = 0, e = b.length): boolean {
  const f = new Fields(b, s, e);
  while (f.next()) if (f.field === 2 && f.wt === VARINT) return f.uint() === 3;
  return false;
}

/** The RDS route_config names of the Listener in b[s, e): its HttpConnectionManagers' (filter_chains, default_filter_chain), in order. */
export function rdsNames(b: Uint8Array, s = 0, e = b.length): string[] {
  const out: string[] = [];
  const l = new Fields(b, s, e);
  while (l.next()) {
    if (!l.is(3) && !l.is(25)) continue;
    const chain = new Fields(b, l.s, l.e);
    while (chain.next()) {
      if (!chain.is(3)) continue;
      const filter = new Fields(b, chain.s, chain.e);
      while (filter.next()) {
        if (!filter.is(4)) continue;
        const any = anyIn(b, filter.s, filter.e, true);
        if (any.typeUrl !== EXT.hcm) continue;
        const hcm = new Fields(b, any.start, any.end);
        while (hcm.next()) {
          if (!hcm.is(3)) continue;
          const rds = new Fields(b, hcm.s, hcm.e);
          while (rds.next()) if (rds.is(2)) out.push(rds.str());
        }
      }
    }
  }
  return out;
}

// ---- writing requests ----------------------------------------------------------------------------------------

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/**
 * A request as a list of (field, string | nested bytes) in field-number order (as protobuf-es writes them); field
 * `RAW` is bytes already encoded (tags included), copied as they are.
 */
type Field = [number, string | Buffer];
const RAW = 0;

/** `prefix`: the bytes start with gRPC's message prefix (a 0 flag byte, the length big-endian), ready for the stream. */
function encode(fields: Field[], prefix = false): Buffer {
  // Plain loops and module-level helpers: a closure made per call is also a `__name` call per call under tsx (its
  // keepNames), which a 5× profile showed beside the encoding itself.
  let size = 0;
  const lens = new Array<number>(fields.length);
  for (let i = 0; i < fields.length; i++) {
    const [f, v] = fields[i]!;
    const n = typeof v === 'string' ? Buffer.byteLength(v) : v.length;
    lens[i] = n;
    size += f === RAW ? n : varintSize(f << 3) + varintSize(n) + n;
  }
  const head = prefix ? 5 : 0;
  const out = Buffer.allocUnsafe(head + size);
  if (prefix) {
    out[0] = 0;
    out.writeUInt32BE(size, 1);
  }
  let o = head;
  for (let i = 0; i < fields.length; i++) {
    const [f, v] = fields[i]!;
    if (f !== RAW) o = putVarint(out, putVarint(out, o, (f << 3) | LEN), lens[i]!);
    if (typeof v === 'string') o += out.write(v, o, 'utf8');
    else {
      out.set(v, o);
      o += v.length;
    }
  }
  if (o !== head + size) throw new Error(`encoded ${o - head} of ${size} bytes`);
  return out;
}

/** Writes `n` as a varint at `o`; returns the offset after it. */
function putVarint(out: Buffer, o: number, n: number): number {
  while (n >= 0x80) {
    out[o++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[o++] = n;
  return o;
}

/** Node { id = 1 } (the bench's clients send only an id). */
export const encodeNode = (id: string): Buffer => encode(id ? [[1, id]] : []);

const nonEmpty = (fields: Array<[number, string | Buffer | undefined]>): Field[] =>
  fields.filter((x): x is Field => x[1] !== undefined && x[1].length > 0);

/** A DiscoveryRequest's resource_names (field 3), encoded once: a SotW client's ACKs repeat its last request's names. */
export interface EncodedNames {
  readonly encoded: Buffer;
}
export const encodeResourceNames = (names: readonly string[]): EncodedNames => ({ encoded: encode(names.map((n) => [3, n])) });

/**
 * The names of the EDS clusters (Cluster.type EDS) in a CDS response — SotW: each Cluster's name; Delta: each
 * Resource's name, as the clients read them — encoded as a request's names (DiscoveryRequest.resource_names and
 * DeltaDiscoveryRequest.resource_names_subscribe are both field 3) by copying their bytes from the response: the
 * same bytes as `encodeResourceNames` of the names decoded, without making 1.5 million strings per 5× wave and
 * encoding them back. `count`: how many names.
 */
export function encodeEdsNames(b: Uint8Array, delta: boolean): EncodedNames & { count: number } {
  const ranges: number[] = [];
  const f = new Fields(b);
  const rf = new Fields(b);
  const g = new Fields(b);
  let size = 0;
  while (f.next()) {
    if (!f.is(2)) continue;
    // SotW: the Any itself; Delta: Resource { name 3, resource 2 (the Any) }
    let ns = -1;
    let ne = -1;
    let as = f.s;
    let ae = f.e;
    if (delta) {
      as = ae = f.e;
      rf.reset(f.s, f.e);
      while (rf.next())
        if (rf.is(3)) {
          ns = rf.s;
          ne = rf.e;
        } else if (rf.is(2)) {
          as = rf.s;
          ae = rf.e;
        }
    }
    let vs = ae;
    let ve = ae;
    g.reset(as, ae);
    while (g.next())
      if (g.is(2)) {
        vs = g.s;
        ve = g.e;
      }
    if (!isEdsCluster(b, vs, ve)) continue;
    if (!delta) {
      ns = ne = ve;
      g.reset(vs, ve);
      while (g.next())
        if (g.is(1)) {
          ns = g.s;
          ne = g.e;
          break;
        }
    }
    if (ns < 0) ns = ne = 0;
    ranges.push(ns, ne);
    size += 1 + varintSize(ne - ns) + (ne - ns);
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const s = ranges[i]!;
    const e = ranges[i + 1]!;
    o = putVarint(out, putVarint(out, o, (3 << 3) | LEN), e - s);
    // a byte loop: names are ~50 bytes, and a view per name to copy with was a third of this function's time
    for (let k = s; k < e; k++) out[o++] = b[k]!;
  }
  return { encoded: out, count: ranges.length / 2 };
}

/** DiscoveryRequest: version_info 1, node 2, resource_names 3, type_url 4, response_nonce 5. */
/** `prefix`: with gRPC's message prefix (what RawStream.write sends as it is), saving the stream a copy. */
export function encodeSotwRequest(r: {
  typeUrl: string;
  versionInfo?: string;
  node?: Buffer;
  resourceNames?: readonly string[] | EncodedNames;
  responseNonce?: string;
  prefix?: boolean;
}): Buffer {
  const fields = nonEmpty([[1, r.versionInfo]]);
  if (r.node) fields.push([2, r.node]);
  const names = r.resourceNames ?? [];
  if ('encoded' in names) fields.push([RAW, names.encoded]);
  else for (const n of names) fields.push([3, n]);
  fields.push(
    ...nonEmpty([
      [4, r.typeUrl],
      [5, r.responseNonce],
    ]),
  );
  return encode(fields, r.prefix);
}

/** `prefix`: as encodeSotwRequest's. DeltaDiscoveryRequest: node 1, type_url 2, resource_names_subscribe 3, initial_resource_versions 5 (map entries: key 1, value 2, both always written), response_nonce 6. */
export function encodeDeltaRequest(r: {
  typeUrl: string;
  node?: Buffer;
  subscribe?: readonly string[] | EncodedNames;
  initialResourceVersions?: ReadonlyMap<string, string>;
  responseNonce?: string;
  prefix?: boolean;
}): Buffer {
  const fields: Field[] = [];
  if (r.node) fields.push([1, r.node]);
  fields.push(...nonEmpty([[2, r.typeUrl]]));
  const subscribe = r.subscribe ?? [];
  if ('encoded' in subscribe) fields.push([RAW, subscribe.encoded]);
  else for (const n of subscribe) fields.push([3, n]);
  for (const [k, v] of r.initialResourceVersions ?? [])
    fields.push([
      5,
      encode([
        [1, k],
        [2, v],
      ]),
    ]); // both always written, as protobuf-es writes map entries
  fields.push(...nonEmpty([[6, r.responseNonce]]));
  return encode(fields, r.prefix);
}
