// Canonical form of an Envoy resource for comparison: its JSON decoded along the generated Envoy descriptors
// (server/gen) and printed back in one spelling, so two dumps that hold the same protobuf message compare
// equal whatever JSON they were written in. What "the same message" means follows proto3 and protojson:
// - field names: proto name or JSON (lowerCamel) name → proto name (as Envoy's config_dump prints them);
// - a scalar or enum at its default in an implicit-presence field is the same as absent (proto3 does not
//   serialize it); enums by name or number → name; 64-bit integers as strings; `null` is absent;
// - an empty repeated field or map is the same as absent;
// - a set message field is never the same as absent, even when empty or at its default: wrappers
//   (`use_remote_address: false` as a BoolValue), `max_stream_duration: "0s"`, `ads: {}` (istioctl's
//   comparator marshals these and counts them, istioctl/pkg/writer/compare);
// - Duration `10s` == `10.000s` == `10.0s`; Struct/Value as plain JSON with sorted keys;
// - Any: v2 type names are read as their v3 names (istioctl's configdump wrapper rewrites the type URL the
//   same way before comparing); an Any whose type is not in the registry, and a field the descriptor does
//   not know, are kept as plain JSON (sorted keys, no default elision) so that a difference in them still shows.
// Never throws; pure.
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { envoyRegistry } from '../gen/registry';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type CanonicalJson = Json;

const IMPLICIT = 2; // FeatureSet.FieldPresence.IMPLICIT (protobuf-es)
const TYPE_PREFIX = 'type.googleapis.com/';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Plain JSON with object keys sorted (Struct, unknown Anys and unknown fields). */
export function sortedJson(v: unknown): Json {
  if (Array.isArray(v)) return v.map(sortedJson);
  if (isObj(v)) {
    const out: { [k: string]: Json } = {};
    for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortedJson(v[k]);
    return out;
  }
  if (v === undefined) return null;
  return v as Json;
}

/**
 * v2 (and v2alpha/v3alpha) message names → the v3 name Envoy reads them as, when the registry holds it:
 * `envoy.api.v2.Cluster` → `envoy.config.cluster.v3.Cluster`, `envoy.config.filter.network.X.v2.Y` →
 * `envoy.extensions.filters.network.X.v3.Y`, `envoy.api.v2.auth.*TlsContext` → the tls v3 package.
 */
const V2_RESOURCES: Record<string, string> = {
  'envoy.api.v2.Cluster': 'envoy.config.cluster.v3.Cluster',
  'envoy.api.v2.Listener': 'envoy.config.listener.v3.Listener',
  'envoy.api.v2.RouteConfiguration': 'envoy.config.route.v3.RouteConfiguration',
  'envoy.api.v2.ClusterLoadAssignment': 'envoy.config.endpoint.v3.ClusterLoadAssignment',
  'envoy.api.v2.auth.UpstreamTlsContext': 'envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
  'envoy.api.v2.auth.DownstreamTlsContext': 'envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
};

export function v3TypeName(name: string): string {
  const direct = V2_RESOURCES[name];
  if (direct) return direct;
  if (envoyRegistry.getMessage(name)) return name;
  const candidates = [
    name.replace(/^envoy\.config\.filter\.(\w+)\.(\w+)\.v2(alpha\d*)?\./, 'envoy.extensions.filters.$1.$2.v3.'),
    name.replace(/\.v2(alpha\d*)?\./, '.v3.').replace(/\.v3alpha\./, '.v3.'),
  ];
  for (const c of candidates) if (c !== name && envoyRegistry.getMessage(c)) return c;
  return name;
}

/** `10.000s` → `10s`, `1.5s` → `1.500s` (protojson's 0/3/6/9 fraction digits); unparsable text as it is. */
export function canonicalDuration(v: unknown): Json {
  if (typeof v !== 'string') return sortedJson(v);
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(v);
  if (!m) return v;
  const secs = BigInt(m[2]!);
  const nanos = Number((m[3] ?? '').padEnd(9, '0') || '0');
  let frac = '';
  if (nanos !== 0) {
    const digits = String(nanos).padStart(9, '0');
    frac = `.${digits.endsWith('000000') ? digits.slice(0, 3) : digits.endsWith('000') ? digits.slice(0, 6) : digits}`;
  }
  const neg = m[1] === '-' && (secs !== 0n || nanos !== 0);
  return `${neg ? '-' : ''}${secs}${frac}s`;
}

const INT64 = new Set([3, 4, 6, 16, 18]); // INT64 UINT64 FIXED64 SFIXED64 SINT64 (ScalarType numbers)
const INT32 = new Set([5, 7, 13, 15, 17]); // INT32 FIXED32 UINT32 SFIXED32 SINT32
const FLOATS = new Set([1, 2]); // DOUBLE FLOAT
const BOOL = 8;
const BYTES = 12;

function scalar(type: number, v: unknown): Json {
  if (INT64.has(type)) return typeof v === 'number' || (typeof v === 'string' && /^-?\d+$/.test(v)) ? String(BigInt(v)) : sortedJson(v);
  if (INT32.has(type) || FLOATS.has(type)) {
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return sortedJson(v);
  }
  if (type === BOOL) return v === 'true' ? true : v === 'false' ? false : sortedJson(v);
  if (type === BYTES && typeof v === 'string') return v.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  return sortedJson(v);
}

const isDefaultScalar = (v: Json): boolean => v === 0 || v === '0' || v === '' || v === false;

const WRAPPER_SCALAR: Record<string, number> = {
  'google.protobuf.DoubleValue': 1,
  'google.protobuf.FloatValue': 2,
  'google.protobuf.Int64Value': 3,
  'google.protobuf.UInt64Value': 4,
  'google.protobuf.Int32Value': 5,
  'google.protobuf.BoolValue': 8,
  'google.protobuf.StringValue': 9,
  'google.protobuf.BytesValue': 12,
  'google.protobuf.UInt32Value': 13,
};

/** Whether a message type prints in protojson as something other than an object of its fields. */
const isSpecialWkt = (typeName: string): boolean =>
  typeName in WRAPPER_SCALAR ||
  [
    'google.protobuf.Duration',
    'google.protobuf.Timestamp',
    'google.protobuf.Struct',
    'google.protobuf.Value',
    'google.protobuf.ListValue',
    'google.protobuf.FieldMask',
  ].includes(typeName);

/** A message value: well-known types by their JSON mapping, Any by its type, others field by field. */
function messageValue(desc: DescMessage, v: unknown): Json {
  const t = desc.typeName;
  const w = WRAPPER_SCALAR[t];
  if (w !== undefined) return scalar(w, isObj(v) && 'value' in v ? v['value'] : v);
  if (t === 'google.protobuf.Duration') return canonicalDuration(v);
  if (t === 'google.protobuf.Timestamp' || t === 'google.protobuf.FieldMask') return sortedJson(v);
  if (t === 'google.protobuf.Struct' || t === 'google.protobuf.Value' || t === 'google.protobuf.ListValue') return sortedJson(v);
  if (t === 'google.protobuf.Any') return anyValue(v);
  return message(desc, v);
}

function anyValue(v: unknown): Json {
  if (!isObj(v) || typeof v['@type'] !== 'string') return sortedJson(v);
  const url = v['@type'];
  const name = v3TypeName(url.slice(url.lastIndexOf('/') + 1));
  const desc = envoyRegistry.getMessage(name);
  const typeUrl = `${TYPE_PREFIX}${name}`;
  if (!desc) return { '@type': typeUrl, ...(sortedJson(Object.fromEntries(Object.entries(v).filter(([k]) => k !== '@type'))) as object) };
  if (isSpecialWkt(desc.typeName)) return { '@type': typeUrl, value: messageValue(desc, v['value']) };
  const body = message(desc, Object.fromEntries(Object.entries(v).filter(([k]) => k !== '@type')));
  return { '@type': typeUrl, ...(isObj(body) ? body : {}) };
}

function fieldValue(f: DescField, v: unknown): Json | undefined {
  if (v === null || v === undefined) return undefined;
  switch (f.fieldKind) {
    case 'scalar': {
      const s = scalar(f.scalar, v);
      return f.presence === IMPLICIT && !f.oneof && isDefaultScalar(s) ? undefined : s;
    }
    case 'enum': {
      const e = typeof v === 'number' ? f.enum.values.find((x) => x.number === v) : f.enum.values.find((x) => x.name === v);
      const name: Json = e ? e.name : sortedJson(v);
      return f.presence === IMPLICIT && !f.oneof && e?.number === 0 ? undefined : name;
    }
    case 'message':
      return messageValue(f.message, v);
    case 'list': {
      if (!Array.isArray(v)) return sortedJson(v);
      if (v.length === 0) return undefined;
      return v.map((x) =>
        f.listKind === 'message'
          ? messageValue(f.message, x)
          : f.listKind === 'enum'
            ? (f.enum.values.find((e) => e.name === x || e.number === x)?.name ?? sortedJson(x))
            : scalar(f.scalar, x),
      );
    }
    case 'map': {
      if (!isObj(v)) return sortedJson(v);
      const keys = Object.keys(v).sort();
      if (keys.length === 0) return undefined;
      const out: { [k: string]: Json } = {};
      for (const k of keys) {
        const x = v[k];
        out[k] =
          f.mapKind === 'message'
            ? messageValue(f.message, x)
            : f.mapKind === 'enum'
              ? (f.enum.values.find((e) => e.name === x || e.number === x)?.name ?? sortedJson(x))
              : scalar(f.scalar, x);
      }
      return out;
    }
  }
}

/** A message's fields in declaration order (as protojson prints them), unknown keys after them, sorted. */
function message(desc: DescMessage, v: unknown): Json {
  if (!isObj(v)) return sortedJson(v);
  const byName = new Map<string, DescField>();
  for (const f of desc.fields) {
    byName.set(f.name, f);
    byName.set(f.jsonName, f);
  }
  const known: [DescField, unknown][] = [];
  const unknown: [string, unknown][] = [];
  for (const [k, x] of Object.entries(v)) {
    const f = byName.get(k);
    if (f) known.push([f, x]);
    else unknown.push([k, x]);
  }
  const out: { [k: string]: Json } = {};
  known.sort((a, b) => desc.fields.indexOf(a[0]) - desc.fields.indexOf(b[0]));
  for (const [f, x] of known) {
    const c = fieldValue(f, x);
    if (c !== undefined) out[f.name] = c;
  }
  for (const [k, x] of unknown.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
    if (x !== undefined && x !== null) out[k] = sortedJson(x);
  return out;
}

/** The canonical JSON of a resource of the given message type (e.g. `envoy.config.cluster.v3.Cluster`). */
export function canonicalResource(typeName: string, json: unknown): Json {
  const desc = envoyRegistry.getMessage(v3TypeName(typeName));
  if (!desc) return sortedJson(json);
  const body = isObj(json) ? Object.fromEntries(Object.entries(json).filter(([k]) => k !== '@type')) : json;
  return message(desc, body);
}

/** Deep equality of canonical JSON (objects by key, arrays in order). */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
}
