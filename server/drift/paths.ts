// The field paths at which two canonical resources differ, in Envoy's field names:
// `filter_chains[0].filters[envoy.filters.network.http_connection_manager].typed_config.stat_prefix`.
// An element of a list is named by its `name` when both sides' elements there carry the same one, else by
// its index; a list of different lengths lists the extra elements. Pure.
import type { CanonicalJson } from './canonical';
import { jsonEqual } from './canonical';

type Json = CanonicalJson;
const isObj = (v: Json | undefined): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

const elementName = (a: Json | undefined, b: Json | undefined): string | undefined =>
  isObj(a) && isObj(b) && typeof a['name'] === 'string' && a['name'] !== '' && a['name'] === b['name'] ? a['name'] : undefined;

export function diffPaths(a: Json | undefined, b: Json | undefined, max = 50): string[] {
  const out: string[] = [];
  const walk = (x: Json | undefined, y: Json | undefined, path: string): void => {
    if (out.length >= max || jsonEqual(x, y)) return;
    if (isObj(x) && isObj(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
      for (const k of keys) walk(x[k], y[k], path === '' ? k : `${path}.${k}`);
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const name = elementName(x[i], y[i]);
        walk(x[i], y[i], `${path}[${name ?? i}]`);
      }
      return;
    }
    out.push(path === '' ? '.' : path);
  };
  walk(a, b, '');
  return out;
}
