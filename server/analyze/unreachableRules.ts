// IST0130 VirtualServiceUnreachableRule and IST0131 VirtualServiceIneffectiveMatch — reported by Istio's
// schema analyzer from validation.go ValidateVirtualService (analyzeUnreachableHTTPRules / TCP / TLS):
// a rule after a rule without matches is unreachable; a match identical to an earlier one (compared
// without its `name`) is ineffective, and a rule whose every match is such a duplicate is unreachable;
// for HTTP, an earlier uri-prefix match that covers a later one (coveredValidation) is reported too.
import type { HTTPMatchRequest, HTTPRoute, StringMatch } from '../model/istio';
import type { IstioConfig } from '../model/mesh';
import { canonicalJson } from '../model/parse/hash';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

type VS = IstioConfig<'VirtualService'>;

/** validation.go routeName / requestName: a quoted name when set (HTTP only), else `#N`. */
const ruleName = (r: { name?: string } | undefined, i: number): string => (r?.name ? JSON.stringify(r.name) : `#${i}`);

/** Go's encoding/json `omitempty` on the generated structs: false, 0, "", empty lists and maps are left out. */
/** Map-typed fields of the match messages: a map is omitted only when it has no keys; its values stay (`{}` included). */
const MAP_FIELDS = new Set(['headers', 'queryParams', 'withoutHeaders', 'sourceLabels']);

function omitEmpty(v: unknown, isMap = false): unknown {
  if (Array.isArray(v)) return v.length ? v.map((x) => omitEmpty(x) ?? {}) : undefined;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = omitEmpty(x, !isMap && MAP_FIELDS.has(k));
      if (y !== undefined) out[k] = y;
      else if (isMap && x !== undefined) out[k] = typeof x === 'object' ? {} : x;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v === false || v === 0 || v === '' || v === null ? undefined : v;
}

/** validation.go asJSON: a match's serialization without its `name`, for comparing matches. */
function matchKey(m: unknown): string {
  const rest = m && typeof m === 'object' ? { ...(m as Record<string, unknown>), name: undefined } : m;
  return canonicalJson(omitEmpty(rest) ?? {});
}

function analyzeRules(
  vs: VS,
  kind: 'http' | 'tcp' | 'tls',
  routes: readonly ({ match?: readonly unknown[]; name?: string } | undefined)[],
  out: Problem[],
): void {
  const seen = new Map<string, number>();
  let catchAll = -1;
  routes.forEach((route, i) => {
    if (!route) return;
    const rname = ruleName(kind === 'http' ? route : undefined, i);
    const matches = route.match ?? [];
    if (matches.length === 0) {
      if (catchAll >= 0)
        out.push(report('VirtualServiceUnreachableRule', vs, `spec.${kind}[${i}]`, rname, 'only the last rule can have no matches'));
      catchAll = i;
      return;
    }
    let dups = 0;
    matches.forEach((m, j) => {
      if (catchAll >= 0) {
        out.push(report('VirtualServiceUnreachableRule', vs, `spec.${kind}[${i}]`, rname, 'route without matches defined before'));
        return;
      }
      const key = matchKey(m);
      const prev = seen.get(key);
      if (prev !== undefined) {
        const mname = kind === 'http' ? ruleName(m as HTTPMatchRequest, j) : `#${j}`;
        out.push(
          report(
            'VirtualServiceIneffectiveMatch',
            vs,
            `spec.${kind}[${i}].match[${j}]`,
            rname,
            mname,
            ruleName(kind === 'http' ? routes[prev] : undefined, prev),
          ),
        );
        dups++;
        return;
      }
      seen.set(key, i);
    });
    if (dups === matches.length)
      out.push(report('VirtualServiceUnreachableRule', vs, `spec.${kind}[${i}]`, rname, 'all matches used by prior rules'));
  });
}

// ---- HTTP prefix overlap (validation.go genMatchHTTPRoutes + coveredValidation)

interface PrefixMatch {
  rule: string;
  match: string;
  path: string;
  prefix: string;
  port: number;
  method: string;
  authority: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  without: Record<string, string>;
}

const exactOrPrefix = (s: StringMatch | undefined): string => (s?.exact ? `exact:${s.exact}` : s?.prefix ? `prefix:${s.prefix}` : '');
const mapOf = (o: Record<string, StringMatch> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, exactOrPrefix(v)]));

function prefixMatch(route: HTTPRoute, m: HTTPMatchRequest, i: number, j: number): PrefixMatch | undefined {
  const prefix = m.uri?.prefix;
  if (!prefix) return undefined;
  return {
    rule: ruleName(route, i),
    match: ruleName(m, j),
    path: `spec.http[${i}].match[${j}]`,
    prefix,
    port: m.port ?? 0,
    method: exactOrPrefix(m.method) || 'exact:GET',
    authority: exactOrPrefix(m.authority),
    headers: mapOf(m.headers),
    query: mapOf(m.queryParams),
    without: mapOf(m.withoutHeaders),
  };
}

function sameOrPrefixed(a: Record<string, string>, b: Record<string, string>): boolean {
  if (Object.keys(a).length !== Object.keys(b).length) return false;
  return Object.entries(a).every(([k, v]) => k in b && (v === b[k] || v.startsWith(b[k] as string)));
}

/** coveredValidation(a, b): the earlier prefix match `a` takes every request the later `b` would. */
function covers(a: PrefixMatch, b: PrefixMatch): boolean {
  if (!b.prefix.startsWith(a.prefix) || a.port !== b.port) return false;
  if (a.method !== b.method && !a.method.startsWith(b.method)) return false;
  if (a.authority !== b.authority && !a.authority.startsWith(b.authority)) return false;
  return sameOrPrefixed(a.headers, b.headers) && sameOrPrefixed(a.query, b.query) && sameOrPrefixed(a.without, b.without);
}

function analyzePrefixOverlap(vs: VS, routes: readonly HTTPRoute[], out: Problem[]): void {
  // Only first occurrences of a match enter the list (duplicates were reported above), and nothing after a catch-all.
  const seen = new Set<string>();
  const list: PrefixMatch[] = [];
  let catchAll = false;
  routes.forEach((route, i) => {
    if (!route || catchAll) return;
    const matches = route.match ?? [];
    if (matches.length === 0) {
      catchAll = true;
      return;
    }
    matches.forEach((m, j) => {
      const key = matchKey(m);
      if (seen.has(key)) return;
      seen.add(key);
      const pm = m ? prefixMatch(route, m, i, j) : undefined;
      if (pm) list.push(pm);
    });
  });
  list.forEach((a, x) => {
    for (const b of list.slice(x + 1)) {
      if (a.prefix === b.prefix || !covers(a, b)) continue;
      out.push(
        report(
          'VirtualServiceIneffectiveMatch',
          vs,
          b.path,
          b.rule,
          `${b.match} of prefix ${b.prefix}`,
          `${a.match} of prefix ${a.prefix} on ${a.rule}`,
        ),
      );
    }
  });
}

export const unreachableRulesAnalyzer: Analyzer = {
  meta: {
    name: 'schema.ValidationAnalyzer.VirtualService',
    description: 'Runs schema validation as an analyzer and reports unreachable rules and ineffective matches',
    inputs: ['VirtualService'],
  },
  analyze(s) {
    const out: Problem[] = [];
    for (const vs of s.virtualServices) {
      const http = vs.spec.http ?? [];
      analyzeRules(vs, 'http', http, out);
      analyzePrefixOverlap(vs, http, out);
      analyzeRules(vs, 'tcp', vs.spec.tcp ?? [], out);
      analyzeRules(vs, 'tls', vs.spec.tls ?? [], out);
    }
    return out;
  },
};
