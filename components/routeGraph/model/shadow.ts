// Routes that can never match. Envoy takes the first route of a virtual host whose match accepts the request
// (source/common/router/config_impl.cc VirtualHostImpl::getRouteFromEntries), so a route is dead when an
// earlier route accepts every request it would accept: an earlier catch-all (`prefix: /` with no other
// condition), an identical earlier match, or an earlier match that is strictly more general (a covering path
// and a subset of the same header / query conditions). Conservative: only proven coverage is reported.
import { asArray, asObject } from '@/server/lib/json';
import { compileRe2 } from '@/server/lib/re2';
import { isDeepStrictEqualJson } from './jsonEqual';
import type { Shadow } from './types';

type M = Record<string, unknown>;

const asObj: (v: unknown) => M = asObject;
const asArr = asArray;

/** Keys of RouteMatch that name the path condition (exactly one is set). */
const PATH_KEYS = ['prefix', 'path', 'path_separated_prefix', 'safe_regex', 'connect_matcher', 'path_match_policy'] as const;
/** Keys handled specially below; every other key must be equal for one match to cover another. */
const SPECIAL = new Set<string>([...PATH_KEYS, 'case_sensitive', 'headers', 'query_parameters', 'runtime_fraction']);

interface PathCond {
  key: string;
  value: unknown;
  caseSensitive: boolean;
}

function pathCond(m: M): PathCond | undefined {
  for (const key of PATH_KEYS) if (m[key] !== undefined) return { key, value: m[key], caseSensitive: m['case_sensitive'] !== false };
  return undefined;
}

/** A prefix that accepts every path (Envoy paths always start with `/`). */
const isCatchAllPath = (p: PathCond) => p.key === 'prefix' && (p.value === '/' || p.value === '');

/** Whether every path `inner` accepts is accepted by `outer`. */
function pathCovers(outer: PathCond, inner: PathCond): boolean {
  if (isCatchAllPath(outer)) return true;
  // An exact path that the regex full-matches (RE2, as Envoy's safe_regex; case_sensitive does not apply to it).
  if (outer.key === 'safe_regex' && inner.key === 'path' && typeof inner.value === 'string' && inner.caseSensitive) {
    const re = compileRe2(String(asObj(outer.value)['regex'] ?? ''));
    if (re.ok && re.re.fullMatch(inner.value)) return true;
  }
  if (outer.key === 'safe_regex' || outer.key === 'connect_matcher' || outer.key === 'path_match_policy')
    return outer.key === inner.key && isDeepStrictEqualJson(outer.value, inner.value) && (!outer.caseSensitive || inner.caseSensitive);
  if (typeof outer.value !== 'string' || typeof inner.value !== 'string') return false;
  // A case-sensitive outer condition does not cover an inner one that also accepts other casings.
  if (outer.caseSensitive && !inner.caseSensitive) return false;
  const fold = (s: string) => (outer.caseSensitive ? s : s.toLowerCase());
  const o = fold(outer.value);
  const i = fold(inner.value);
  if (outer.key === 'prefix') return ['prefix', 'path', 'path_separated_prefix'].includes(inner.key) && i.startsWith(o);
  if (outer.key === 'path') return inner.key === 'path' && i === o;
  if (outer.key === 'path_separated_prefix') {
    if (inner.key === 'path') return i === o || i.startsWith(o + '/');
    return (
      (inner.key === 'path_separated_prefix' || inner.key === 'prefix') &&
      (i === o ? inner.key === 'path_separated_prefix' : i.startsWith(o + '/'))
    );
  }
  return false;
}

/** Every condition of `outer` appears, identical, among `inner`'s. */
function conditionsSubset(outer: unknown[], inner: unknown[]): boolean {
  return outer.every((c) => inner.some((d) => isDeepStrictEqualJson(c, d)));
}

/** Whether route match `outer` accepts every request `inner` accepts (so a later `inner` is dead). */
export function matchCovers(outerMatch: unknown, innerMatch: unknown): boolean {
  const outer = asObj(outerMatch);
  const inner = asObj(innerMatch);
  // A runtime_fraction lets some requests fall through to later routes.
  if (outer['runtime_fraction'] !== undefined) return false;
  const op = pathCond(outer);
  const ip = pathCond(inner);
  if (!op || !ip || !pathCovers(op, ip)) return false;
  if (!conditionsSubset(asArr(outer['headers']), asArr(inner['headers']))) return false;
  if (!conditionsSubset(asArr(outer['query_parameters']), asArr(inner['query_parameters']))) return false;
  for (const k of Object.keys(outer)) if (!SPECIAL.has(k) && !isDeepStrictEqualJson(outer[k], inner[k])) return false;
  return true;
}

function describe(outerMatch: unknown, innerMatch: unknown, by: number): string {
  const outer = asObj(outerMatch);
  const op = pathCond(outer);
  const plain = asArr(outer['headers']).length === 0 && asArr(outer['query_parameters']).length === 0;
  if (op && isCatchAllPath(op) && plain && Object.keys(outer).every((k) => SPECIAL.has(k)))
    return `never matches: route #${by} before it is a catch-all (prefix ${JSON.stringify(op.value)}) and takes every request`;
  if (isDeepStrictEqualJson(outerMatch, innerMatch)) return `never matches: route #${by} before it has an identical match`;
  return `never matches: route #${by} before it matches every request this one would (more general match)`;
}

/**
 * For the routes of one virtual host, in order: index → why it can never match. The first earlier route that
 * covers it is named (Envoy would pick that one).
 */
export function shadowedRoutes(routes: readonly unknown[]): Map<number, Shadow> {
  const out = new Map<number, Shadow>();
  routes.forEach((r, j) => {
    const inner = asObj(r)['match'];
    if (inner === undefined) return;
    for (let i = 0; i < j; i++) {
      const outer = asObj(routes[i])['match'];
      if (outer === undefined || !matchCovers(outer, inner)) continue;
      out.set(j, { by: i, reason: describe(outer, inner, i) });
      return;
    }
  });
  return out;
}
