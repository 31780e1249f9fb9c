// What the bench's ADS clients read of a response and write back, straight on the protobuf wire: a client reads only
// what an xDS client must (type URL, version, nonce, each resource's name — and version in Delta —, for CDS which
// clusters are EDS, for LDS the RDS route_config names inside each HttpConnectionManager) and ACKs with a
// hand-encoded DiscoveryRequest / DeltaDiscoveryRequest. Decoding every response with protobuf-es cost the bench's
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

/** Calls `on(field, wireType, start, end)` for each top-level field of `b` (for LEN fields start/end bound the payload). */
function walk(b: Uint8Array, on: (field: number, wt: number, start: number, end: number) => void): void {
  let i = 0;
  const varint = (): number => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      if (i >= b.length || shift > 63) throw new Error('truncated varint');
      const x = b[i++]!;
      n += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) return n;
    }
  };
  while (i < b.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wt = tag & 7;
    const start = i;
    if (wt === VARINT) varint();
    else if (wt === I64) i += 8;
    else if (wt === I32) i += 4;
    else if (wt === LEN) {
      const len = varint();
      const s = i;
      i += len;
      if (i > b.length) throw new Error('truncated field');
      on(field, wt, s, i);
      continue;
    } else throw new Error(`wire type ${wt} of field ${field}`);
    if (i > b.length) throw new Error('truncated field');
    on(field, wt, start, i);
  }
}

const str = (b: Uint8Array, s: number, e: number) => utf8.decode(b.subarray(s, e));
const readVarint = (b: Uint8Array, s: number): number => {
  let n = 0;
  for (let i = s, shift = 0; i < b.length; i++, shift += 7) {
    n += (b[i]! & 0x7f) * 2 ** shift;
    if (b[i]! < 0x80) break;
  }
  return n;
};

/** A resource as a client reads it: its name and the bytes of the resource message (Any.value). */
export interface WireResource {
  name: string;
  value: Uint8Array;
  /** Delta: Resource.version. */
  version?: string;
}

export interface WireResponse {
  typeUrl: string;
  /** SotW version_info / Delta system_version_info. */
  version: string;
  nonce: string;
  resources: WireResource[];
  /** Delta removed_resources. */
  removed: string[];
}

/** field 1 of a resource (Cluster/Listener/RouteConfiguration name, ClusterLoadAssignment cluster_name). */
export function resourceNameOf(value: Uint8Array): string {
  let name = '';
  walk(value, (f, wt, s, e) => {
    if (f === 1 && wt === LEN) name = str(value, s, e);
  });
  return name;
}

/** Any { type_url = 1; value = 2 }: the value's bytes. */
function anyValue(b: Uint8Array, s: number, e: number): { typeUrl: string; value: Uint8Array } {
  const any = b.subarray(s, e);
  let typeUrl = '';
  let value: Uint8Array = new Uint8Array(0);
  walk(any, (f, wt, vs, ve) => {
    if (wt !== LEN) return;
    if (f === 1) typeUrl = str(any, vs, ve);
    else if (f === 2) value = any.subarray(vs, ve);
  });
  return { typeUrl, value };
}

/** A DiscoveryResponse: version_info 1, resources 2 (Any), type_url 4, nonce 5. */
export function readSotwResponse(b: Uint8Array): WireResponse {
  const r: WireResponse = { typeUrl: '', version: '', nonce: '', resources: [], removed: [] };
  walk(b, (f, wt, s, e) => {
    if (wt !== LEN) return;
    if (f === 1) r.version = str(b, s, e);
    else if (f === 2) {
      const { value } = anyValue(b, s, e);
      r.resources.push({ name: '', value });
    } else if (f === 4) r.typeUrl = str(b, s, e);
    else if (f === 5) r.nonce = str(b, s, e);
  });
  for (const x of r.resources) x.name = resourceNameOf(x.value);
  return r;
}

/** A DeltaDiscoveryResponse: system_version_info 1, resources 2 (Resource: version 1, resource 2, name 3), type_url 4, nonce 5, removed_resources 6. */
export function readDeltaResponse(b: Uint8Array): WireResponse {
  const r: WireResponse = { typeUrl: '', version: '', nonce: '', resources: [], removed: [] };
  walk(b, (f, wt, s, e) => {
    if (wt !== LEN) return;
    if (f === 1) r.version = str(b, s, e);
    else if (f === 2) {
      const res = b.subarray(s, e);
      const x: WireResource = { name: '', value: new Uint8Array(0), version: '' };
      walk(res, (rf, rwt, rs, re) => {
        if (rwt !== LEN) return;
        if (rf === 1) x.version = str(res, rs, re);
        else if (rf === 2) x.value = anyValue(res, rs, re).value;
        else if (rf === 3) x.name = str(res, rs, re);
      });
      r.resources.push(x);
    } else if (f === 4) r.typeUrl = str(b, s, e);
    else if (f === 5) r.nonce = str(b, s, e);
    else if (f === 6) r.removed.push(str(b, s, e));
  });
  return r;
}

/** Cluster.type (field 2) is EDS (3). */
export function isEdsCluster(value: Uint8Array): boolean {
  let eds = false;
  walk(value, (f, wt, s) => {
    if (f === 2 && wt === VARINT) eds = readVarint(value, s) === 3;
  });
  return eds;
}

/** The RDS route_config names of a Listener's HttpConnectionManagers (filter_chains and default_filter_chain), in order. */
export function rdsNames(listener: Uint8Array): string[] {
  const out: string[] = [];
  const chain = (c: Uint8Array) =>
    walk(c, (f, wt, s, e) => {
      if (f !== 3 || wt !== LEN) return;
      const filter = c.subarray(s, e);
      walk(filter, (ff, fwt, fs, fe) => {
        if (ff !== 4 || fwt !== LEN) return;
        const any = anyValue(filter, fs, fe);
        if (any.typeUrl !== EXT.hcm) return;
        walk(any.value, (hf, hwt, hs, he) => {
          if (hf !== 3 || hwt !== LEN) return;
          const rds = any.value.subarray(hs, he);
          walk(rds, (rf, rwt, rs, re) => {
            if (rf === 2 && rwt === LEN) out.push(str(rds, rs, re));
          });
        });
      });
    });
  walk(listener, (f, wt, s, e) => {
    if ((f === 3 || f === 25) && wt === LEN) chain(listener.subarray(s, e));
  });
  return out;
}

// ---- writing requests ----------------------------------------------------------------------------------------

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** A request as a list of (field, string | nested bytes) in field-number order (as protobuf-es writes them). */
type Field = [number, string | Buffer];

function encode(fields: Field[]): Buffer {
  let size = 0;
  const lens = fields.map(([f, v]) => {
    const n = typeof v === 'string' ? Buffer.byteLength(v) : v.length;
    size += varintSize(f << 3) + varintSize(n) + n;
    return n;
  });
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  const varint = (n: number) => {
    while (n >= 0x80) {
      out[o++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    out[o++] = n;
  };
  fields.forEach(([f, v], i) => {
    varint((f << 3) | LEN);
    varint(lens[i]!);
    if (typeof v === 'string') o += out.write(v, o, 'utf8');
    else {
      v.copy(out, o);
      o += v.length;
    }
  });
  if (o !== size) throw new Error(`encoded ${o} of ${size} bytes`);
  return out;
}

/** Node { id = 1 } (the bench's clients send only an id). */
export const encodeNode = (id: string): Buffer => encode(id ? [[1, id]] : []);

const nonEmpty = (fields: Array<[number, string | Buffer | undefined]>): Field[] =>
  fields.filter((x): x is Field => x[1] !== undefined && x[1].length > 0);

/** DiscoveryRequest: version_info 1, node 2, resource_names 3, type_url 4, response_nonce 5. */
export function encodeSotwRequest(r: {
  typeUrl: string;
  versionInfo?: string;
  node?: Buffer;
  resourceNames?: readonly string[];
  responseNonce?: string;
}): Buffer {
  const fields = nonEmpty([[1, r.versionInfo]]);
  if (r.node) fields.push([2, r.node]);
  for (const n of r.resourceNames ?? []) fields.push([3, n]);
  fields.push(
    ...nonEmpty([
      [4, r.typeUrl],
      [5, r.responseNonce],
    ]),
  );
  return encode(fields);
}

/** DeltaDiscoveryRequest: node 1, type_url 2, resource_names_subscribe 3, initial_resource_versions 5 (map entries: key 1, value 2, both always written), response_nonce 6. */
export function encodeDeltaRequest(r: {
  typeUrl: string;
  node?: Buffer;
  subscribe?: readonly string[];
  initialResourceVersions?: ReadonlyMap<string, string>;
  responseNonce?: string;
}): Buffer {
  const fields: Field[] = [];
  if (r.node) fields.push([1, r.node]);
  fields.push(...nonEmpty([[2, r.typeUrl]]));
  for (const n of r.subscribe ?? []) fields.push([3, n]);
  for (const [k, v] of r.initialResourceVersions ?? [])
    fields.push([
      5,
      encode([
        [1, k],
        [2, v],
      ]),
    ]); // both always written, as protobuf-es writes map entries
  fields.push(...nonEmpty([[6, r.responseNonce]]));
  return encode(fields);
}
