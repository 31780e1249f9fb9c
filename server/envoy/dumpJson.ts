// The config dump's JSON of a resource straight from the translator's proto3 JSON, without building a protobuf
// message: what `toJson(fromBinary(toBinary(fromJson(json))))` + typeFirst (encode.ts) prints, for the JSON a
// translator emits. Issue #24: on a gateway's 20 MB dump that round trip (message objects, binary, message objects
// again) was a quarter of `meshscope translate`.
// - The same text as the round trip: fields in field-number order under their proto names, implicit-presence
//   zeros left out, enums by name (unknown numbers as numbers), 64-bit integers as decimal strings, floats as the
//   float32 the wire keeps (Math.fround), Durations as protobuf prints them, Anys unpacked with "@type" first.
// - A strict subset of what protobuf-es' fromJson accepts: anything else (an unknown key, null, a number given as
//   a string, a lone surrogate, a type not in the registry, Timestamps, field masks, maps with non-string keys…)
//   makes `dumpJson` return undefined and the caller takes the round trip, which also reports what is wrong. So
//   whatever this returns, the round trip would have succeeded and printed the same (dumpJson.test.ts checks it on
//   every resource of every golden mesh and on the corner cases above).
import { type DescEnum, type DescField, type DescMessage, type JsonValue, type Registry, ScalarType } from '@bufbuild/protobuf';
import { type EncodedResource, type EnvoyJson, encodeResource } from './encode';
import type { TypeUrl } from './typeUrls';

/** Thrown inside a conversion for JSON the fast path does not take (never escapes `dumpJson`). */
const BAIL: unique symbol = Symbol('bail');
type Obj = { [k: string]: JsonValue };

/** proto3 field presence values of @bufbuild/protobuf's FeatureSet_FieldPresence. */
const IMPLICIT = 2;
const LEGACY_REQUIRED = 3;
const DURATION_MAX_SECONDS = 315_576_000_000;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const SURROGATE = /[\uD800-\uDFFF]/;
const DURATION = /^(\d+)(?:\.(\d{1,9}))?s$/;
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const WRAPPERS: ReadonlySet<string> = new Set(
  ['Double', 'Float', 'Int64', 'UInt64', 'Int32', 'UInt32', 'Bool', 'String', 'Bytes'].map((t) => `google.protobuf.${t}Value`),
);

interface FieldPlan {
  field: DescField;
  number: number;
  /** Printed even when zero (explicit presence: messages, oneof members, proto3 `optional`). */
  explicit: boolean;
}

/** A message's fields by each JSON key fromJson reads them under (JSON name and proto name). */
type MessagePlan = Map<string, FieldPlan>;

const bail = (): never => {
  throw BAIL;
};

/** One conversion context: the registry Anys are looked up in, and per-message plans built on first use. */
export class DumpJsonWriter {
  private readonly plans = new Map<DescMessage, MessagePlan>();
  private readonly enums = new Map<DescEnum, Map<string, number>>();

  constructor(private readonly registry: Registry) {}

  /** The dump JSON of a message of `typeName` given as the translator's JSON, or undefined (take the round trip). */
  resource(typeName: string, json: unknown): EnvoyJson | undefined {
    const desc = this.registry.getMessage(typeName);
    if (!desc) return undefined;
    try {
      return this.message(desc, json as JsonValue) as EnvoyJson;
    } catch (e) {
      if (e === BAIL) return undefined;
      throw e;
    }
  }

  private plan(desc: DescMessage): MessagePlan {
    let p = this.plans.get(desc);
    if (p) return p;
    p = new Map();
    for (const field of desc.fields) {
      const presence = field.fieldKind === 'scalar' || field.fieldKind === 'enum' ? field.presence : undefined;
      if (presence === LEGACY_REQUIRED) bail();
      const f: FieldPlan = {
        field,
        number: field.number,
        explicit: field.oneof !== undefined || field.fieldKind === 'message' || (presence !== undefined && presence !== IMPLICIT),
      };
      p.set(field.jsonName, f).set(field.name, f);
    }
    this.plans.set(desc, p);
    return p;
  }

  /** A message value: the well-known types' own JSON forms, else an object of its fields. */
  private message(desc: DescMessage, json: JsonValue): JsonValue {
    const t = desc.typeName;
    if (t.startsWith('google.protobuf.')) {
      if (t === 'google.protobuf.Any') return this.any(json);
      if (t === 'google.protobuf.Duration') return duration(json);
      if (t === 'google.protobuf.Struct') return struct(json);
      if (t === 'google.protobuf.Value') return value(json);
      if (t === 'google.protobuf.ListValue') return Array.isArray(json) ? json.map(value) : bail();
      if (WRAPPERS.has(t)) return scalar(desc.fields[0]!, json);
      if (t === 'google.protobuf.Timestamp' || t === 'google.protobuf.FieldMask') bail();
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return bail();
    const plan = this.plan(desc);
    // The fields given, then printed in field-number order (toJson's order).
    const given: FieldPlan[] = [];
    const values: JsonValue[] = [];
    for (const k in json) {
      const f = Object.hasOwn(json, k) ? plan.get(k) : undefined;
      const v = json[k];
      // A key no field reads (unknown, an extension), null or undefined: fromJson's business.
      if (f === undefined || v === null || v === undefined || given.includes(f)) return bail();
      const oneof = f.field.oneof;
      if (oneof && given.some((g) => g.field.oneof === oneof)) bail();
      // insertion by field number (a few fields per object)
      let i = given.length;
      while (i > 0 && given[i - 1]!.number > f.number) i--;
      given.splice(i, 0, f);
      values.splice(i, 0, v);
    }
    const out: Obj = {};
    for (let i = 0; i < given.length; i++) {
      const f = given[i]!;
      const printed = this.fieldValue(f.field, values[i]!);
      if (printed === undefined) continue;
      if (!f.explicit && isZero(f.field, printed)) continue;
      out[f.field.name] = printed;
    }
    return out;
  }

  /** A field's printed value; undefined for an empty list or map (left out). */
  private fieldValue(field: DescField, v: JsonValue): JsonValue | undefined {
    switch (field.fieldKind) {
      case 'scalar':
        return scalar(field, v);
      case 'enum':
        return this.enumValue(field.enum, v);
      case 'message':
        return this.message(field.message, v);
      case 'list': {
        if (!Array.isArray(v)) return bail();
        if (v.length === 0) return undefined;
        const out: JsonValue[] = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const item = v[i]!;
          if (item === null) bail();
          out[i] =
            field.listKind === 'scalar'
              ? scalar(field, item)
              : field.listKind === 'enum'
                ? this.enumValue(field.enum, item)
                : this.message(field.message, item);
        }
        return out;
      }
      case 'map': {
        if (v === null || typeof v !== 'object' || Array.isArray(v) || field.mapKey !== ScalarType.STRING) return bail();
        const keys = Object.keys(v);
        if (keys.length === 0) return undefined;
        const out: Obj = {};
        for (const k of keys) {
          const item = v[k];
          if (item === null || item === undefined || k === '__proto__' || k === '@type' || SURROGATE.test(k)) bail();
          out[k] =
            field.mapKind === 'scalar'
              ? scalar(field, item!)
              : field.mapKind === 'enum'
                ? this.enumValue(field.enum, item!)
                : this.message(field.message, item!);
        }
        return out;
      }
    }
  }

  private enumValue(desc: DescEnum, v: JsonValue): JsonValue {
    if (desc.typeName === 'google.protobuf.NullValue') bail();
    let n: number | undefined;
    if (typeof v === 'string') {
      let byName = this.enums.get(desc);
      if (!byName) {
        byName = new Map();
        // As fromJson: JSON names, then proto names (those win).
        for (const ev of desc.values) byName.set(ev.jsonName, ev.number);
        for (const ev of desc.values) byName.set(ev.name, ev.number);
        this.enums.set(desc, byName);
      }
      n = byName.get(v);
    } else if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) n = v;
    if (n === undefined) return bail();
    return desc.value[n]?.jsonName ?? n;
  }

  private any(json: JsonValue): JsonValue {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return bail();
    const url = json['@type'];
    if (Object.keys(json).length === 0) return {};
    if (typeof url !== 'string') return bail();
    const desc = this.registry.getMessage(url.slice(url.lastIndexOf('/') + 1));
    if (!desc) return bail();
    const out: Obj = { '@type': `type.googleapis.com/${desc.typeName}` };
    if (customJson(desc)) {
      if (!Object.hasOwn(json, 'value') || Object.keys(json).length !== 2) return bail();
      out.value = this.message(desc, json.value!);
      return out;
    }
    const rest: Obj = {};
    for (const k of Object.keys(json)) if (k !== '@type') rest[k] = json[k]!;
    return Object.assign(out, this.message(desc, rest) as Obj);
  }
}

/** Well-known types printed as something other than an object of their fields. */
function customJson(desc: DescMessage): boolean {
  const t = desc.typeName;
  return (
    WRAPPERS.has(t) ||
    t === 'google.protobuf.Any' ||
    t === 'google.protobuf.Duration' ||
    t === 'google.protobuf.Timestamp' ||
    t === 'google.protobuf.FieldMask' ||
    t === 'google.protobuf.Struct' ||
    t === 'google.protobuf.Value' ||
    t === 'google.protobuf.ListValue'
  );
}

/** toJson's implicit-presence zero check, on the printed value. */
function isZero(field: DescField, printed: JsonValue): boolean {
  if (field.fieldKind === 'enum') {
    const zero = field.enum.values[0]!.number;
    return printed === (field.enum.value[zero]?.jsonName ?? zero);
  }
  switch (field.scalar) {
    case ScalarType.BOOL:
      return printed === false;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return printed === '';
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return Object.is(printed, 0);
    default:
      // 32-bit numbers and 64-bit decimal strings
      return printed === 0 || printed === '0';
  }
}

function int64(v: JsonValue, unsigned: boolean): string {
  let n: bigint;
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && INTEGER.test(v)) n = BigInt(v);
  else return bail();
  if (unsigned ? n < 0n || n > UINT64_MAX : n < INT64_MIN || n > INT64_MAX) bail();
  return n.toString();
}

/** A scalar as the round trip prints it (its wire form read back). */
function scalar(field: DescField, v: JsonValue): JsonValue {
  switch (field.scalar) {
    case ScalarType.STRING:
      return typeof v === 'string' && !SURROGATE.test(v) ? v : bail();
    case ScalarType.BOOL:
      return typeof v === 'boolean' ? v : bail();
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? v + 0 : bail();
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 32 ? v + 0 : bail();
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64(v, false);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int64(v, true);
    case ScalarType.DOUBLE:
      return typeof v === 'number' && Number.isFinite(v) ? v : bail();
    case ScalarType.FLOAT: {
      const f = typeof v === 'number' ? Math.fround(v) : Number.NaN;
      return Number.isFinite(f) ? f : bail();
    }
    case ScalarType.BYTES:
      // Only canonical standard base64 (what toJson prints back).
      return typeof v === 'string' && Buffer.from(v, 'base64').toString('base64') === v ? v : bail();
    default:
      return bail();
  }
}

function duration(json: JsonValue): string {
  const m = typeof json === 'string' ? DURATION.exec(json) : null;
  if (!m) return bail();
  const seconds = Number(m[1]);
  if (seconds > DURATION_MAX_SECONDS) bail();
  let text = String(seconds);
  const nanos = m[2] === undefined ? 0 : Number(m[2].padEnd(9, '0'));
  if (nanos !== 0) {
    let frac = String(nanos).padStart(9, '0');
    if (frac.endsWith('000000')) frac = frac.slice(0, 3);
    else if (frac.endsWith('000')) frac = frac.slice(0, 6);
    text += `.${frac}`;
  }
  return `${text}s`;
}

/** A google.protobuf.Value: any JSON but non-finite numbers; objects with "@type" first (encode.ts typeFirst). */
function value(json: JsonValue): JsonValue {
  if (json === null || typeof json === 'boolean') return json;
  if (typeof json === 'number') return Number.isFinite(json) ? json : bail();
  if (typeof json === 'string') return SURROGATE.test(json) ? bail() : json;
  if (Array.isArray(json)) return json.map(value);
  return struct(json);
}

function struct(json: JsonValue): Obj {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return bail();
  const out: Obj = {};
  if (Object.hasOwn(json, '@type')) out['@type'] = value(json['@type']!);
  for (const k of Object.keys(json)) {
    if (k === '__proto__' || SURROGATE.test(k)) bail();
    const v = json[k];
    if (v === undefined) bail();
    if (k !== '@type') out[k] = value(v!);
  }
  return out;
}

/**
 * An EncodedResource whose dump JSON is known (`DumpJsonWriter`): its bytes (and their hash) are encoded only
 * if read. A config dump reads neither, so the CLI never encodes what it only prints.
 */
export function dumpFirstResource(typeUrl: TypeUrl, name: string, json: unknown, dump: EnvoyJson): EncodedResource {
  let encoded: EncodedResource | undefined;
  const full = () => (encoded ??= encodeResource(typeUrl, name, json));
  return {
    typeUrl,
    name,
    get bytes() {
      return full().bytes;
    },
    json: dump,
    get hash() {
      return full().hash;
    },
  };
}
