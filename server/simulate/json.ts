// Safe readers over untrusted Envoy JSON (config dumps are user input): never throw, return undefined.
import type { EnvoyJson } from '../envoy/encode';

export type J = EnvoyJson;

export function isObj(v: unknown): v is J {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object at `v[key]`, if it is one. */
export function obj(v: unknown, key: string): J | undefined {
  if (!isObj(v)) return undefined;
  const x = v[key];
  return isObj(x) ? x : undefined;
}

/** The array at `v[key]` (empty when absent or not an array). */
export function arr(v: unknown, key: string): unknown[] {
  if (!isObj(v)) return [];
  const x = v[key];
  return Array.isArray(x) ? x : [];
}

/** The objects of the array at `v[key]`. */
export function objs(v: unknown, key: string): J[] {
  return arr(v, key).filter(isObj);
}

export function str(v: unknown, key: string): string | undefined {
  if (!isObj(v)) return undefined;
  const x = v[key];
  return typeof x === 'string' ? x : undefined;
}

/** Numbers (proto3 JSON prints 64-bit integers as strings; wrappers as plain values). */
export function num(v: unknown, key: string): number | undefined {
  if (!isObj(v)) return undefined;
  const x = v[key];
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) return Number(x);
  if (isObj(x) && typeof x['value'] === 'number') return x['value'];
  return undefined;
}

export function bool(v: unknown, key: string): boolean | undefined {
  if (!isObj(v)) return undefined;
  const x = v[key];
  if (typeof x === 'boolean') return x;
  if (isObj(x) && typeof x['value'] === 'boolean') return x['value'];
  return undefined;
}

export function has(v: unknown, key: string): boolean {
  return isObj(v) && v[key] !== undefined && v[key] !== null;
}

/** The `@type` of an Any / typed_config, without the `type.googleapis.com/` prefix. */
export function typeName(v: unknown): string {
  const t = str(v, '@type') ?? '';
  return t.slice(t.lastIndexOf('/') + 1);
}
