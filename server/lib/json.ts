// The one set of defensive readers over untrusted JSON/YAML values (config dumps, syncz, Kubernetes objects,
// node metadata, Istio specs read before validation): wrong shapes read as empty or undefined, never throw.
// Two forms: value coercers (`asString(v)`) and field readers (`getString(v, key)`). Pure, browser-safe.

export type JsonObject = Record<string, unknown>;

/** A plain object (not null, not an array). */
export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object, or `{}` for anything else. */
export const asObject = (v: unknown): JsonObject => (isJsonObject(v) ? v : {});

/** The object, or undefined for anything else. */
export const asObjectOrUndefined = (v: unknown): JsonObject | undefined => (isJsonObject(v) ? v : undefined);

/** The array, or `[]` for anything else. */
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A string with at least one character (metadata and syncz fields treat `""` as absent). */
export const asNonEmptyString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A scalar as YAML would print it: strings as they are, numbers and booleans stringified; others undefined. */
export const asScalarString = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** A finite number, or a non-blank numeric string (proto3 JSON prints 64-bit integers as strings). */
export function asNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The string-valued entries of an object (labels, node metadata); other values are dropped. */
export function asStringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

const field = (v: unknown, key: string): unknown => (isJsonObject(v) ? v[key] : undefined);

/** The object at `v[key]`, if it is one. */
export const getObject = (v: unknown, key: string): JsonObject | undefined => asObjectOrUndefined(field(v, key));

/** The array at `v[key]` (empty when absent or not an array). */
export const getArray = (v: unknown, key: string): unknown[] => asArray(field(v, key));

/** The objects of the array at `v[key]`. */
export const getObjects = (v: unknown, key: string): JsonObject[] => getArray(v, key).filter(isJsonObject);

export const getString = (v: unknown, key: string): string | undefined => asString(field(v, key));

/** A number at `v[key]`: plain, numeric string, or a protobuf wrapper `{ value: n }`. */
export function getNumber(v: unknown, key: string): number | undefined {
  const x = field(v, key);
  if (isJsonObject(x)) return typeof x['value'] === 'number' ? x['value'] : undefined;
  return asNumber(x);
}

/** A boolean at `v[key]`: plain or a protobuf wrapper `{ value: b }`. */
export function getBoolean(v: unknown, key: string): boolean | undefined {
  const x = field(v, key);
  if (typeof x === 'boolean') return x;
  return isJsonObject(x) && typeof x['value'] === 'boolean' ? x['value'] : undefined;
}

/** `v[key]` is present and not null. */
export const hasField = (v: unknown, key: string): boolean => {
  const x = field(v, key);
  return x !== undefined && x !== null;
};
