// Istio's proto merge (pkg/proto/merge: proto.Merge with google.protobuf.Duration replaced whole, and
// MergeWithReplaceList) and pilot/pkg/networking/util MergeAnyWithAny, on canonical proto3 JSON guided by the
// message descriptors of the full Envoy API:
// - scalars, enums, bytes, wrappers, Duration, Timestamp, Any: the patch's value replaces (in canonical JSON a
//   present implicit-presence scalar is non-zero, which is when proto.Merge sets it);
// - messages: merged field by field; setting a oneof member clears its siblings;
// - repeated fields: appended (MERGE) or replaced (MERGE_AND_REPLACE_LIST, when the patch's list is non-empty);
// - maps and Struct fields: entries set by key.
import type { DescMessage } from '@bufbuild/protobuf';
import { fullEnvoyRegistry } from '../envoy/fullApi';

export type Json = Record<string, unknown>;

const REPLACED_WHOLE = new Set([
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
  'google.protobuf.Any',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  'google.protobuf.FieldMask',
  'google.protobuf.BoolValue',
  'google.protobuf.StringValue',
  'google.protobuf.BytesValue',
  'google.protobuf.Int32Value',
  'google.protobuf.Int64Value',
  'google.protobuf.UInt32Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.FloatValue',
  'google.protobuf.DoubleValue',
]);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const clone = <T>(v: T): T => structuredClone(v);

/** Merges `src` into `dst` (mutated) as proto.Merge merges two messages of type `desc`. */
export function mergeMessage(desc: DescMessage, dst: Json, src: Json, replaceLists = false): void {
  if (desc.typeName === 'google.protobuf.Struct') {
    const fields = isObj(dst) ? dst : {};
    for (const [k, v] of Object.entries(src)) fields[k] = clone(v);
    return;
  }
  for (const [key, sv] of Object.entries(src)) {
    if (key === '@type') continue;
    const f = desc.fields.find((x) => x.jsonName === key || x.name === key);
    if (!f) {
      dst[key] = clone(sv);
      continue;
    }
    const dk = f.jsonName in dst || !(f.name in dst) ? f.jsonName : f.name;
    if (f.oneof) for (const o of f.oneof.fields) if (o !== f) for (const k of [o.jsonName, o.name]) delete dst[k];
    const dv = dst[dk];
    if (f.fieldKind === 'list') {
      dst[dk] = replaceLists || !Array.isArray(dv) ? clone(sv) : [...dv, ...clone(sv as unknown[])];
    } else if (f.fieldKind === 'map') {
      dst[dk] = { ...(isObj(dv) ? dv : {}), ...clone(sv as Json) };
    } else if (f.fieldKind === 'message' && !REPLACED_WHOLE.has(f.message.typeName) && isObj(dv) && isObj(sv)) {
      mergeMessage(f.message, dv, sv, replaceLists);
    } else {
      dst[dk] = clone(sv);
    }
  }
}

/** The descriptor of an Any's payload, from its `@type`. */
export function anyDesc(any: Json): DescMessage | undefined {
  const t = any['@type'];
  if (typeof t !== 'string') return undefined;
  return fullEnvoyRegistry().getMessage(t.slice(t.lastIndexOf('/') + 1));
}

/**
 * util.MergeAnyWithAny: both Anys of one type → the payloads merged (a new Any); different types or an unknown
 * type → undefined (istiod keeps the original on that error).
 */
export function mergeAnyWithAny(dst: Json, src: Json): Json | undefined {
  if (dst['@type'] !== src['@type']) return undefined;
  const desc = anyDesc(dst);
  if (!desc) return undefined;
  const out = clone(dst);
  mergeMessage(desc, out, src);
  return out;
}
