// Safe readers over untrusted Envoy JSON (config dumps are user input): never throw, return undefined.
import type { EnvoyJson } from '../envoy/encode';
import { getObject, getObjects, getString, isJsonObject } from '../lib/json';

export type J = EnvoyJson;

// Field readers over the dump's Envoy JSON: the generic ones of server/lib/json, typed as Envoy JSON.
export const isObj = isJsonObject as (v: unknown) => v is J;
export const obj = getObject as (v: unknown, key: string) => J | undefined;
export const objs = getObjects as (v: unknown, key: string) => J[];
export { getArray as arr, getBoolean as bool, getNumber as num, getString as str, hasField as has } from '../lib/json';

/** The `@type` of an Any / typed_config, without the `type.googleapis.com/` prefix. */
export function typeName(v: unknown): string {
  const t = getString(v, '@type') ?? '';
  return t.slice(t.lastIndexOf('/') + 1);
}
