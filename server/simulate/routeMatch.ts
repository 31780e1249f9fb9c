// envoy.config.route.v3.RouteMatch: the first route whose path specifier, headers, query parameters and
// other conditions all match wins. Envoy: source/common/router/config_impl.cc (RouteEntryImplBase::matchRoute,
// PrefixRouteEntryImpl / PathRouteEntryImpl / RegexRouteEntryImpl / PathSeparatedPrefixRouteEntryImpl /
// ConnectRouteEntryImpl). Path matching uses the path without query string and fragment.
import { arr, bool, has, isObj, num, obj, str, type J } from './json';
import { matchHeaders, matchQueryParam, parseQuery, type MatchOutcome } from './headerMatch';
import { fullRegex } from './stringMatch';
import type { SimCtx } from './types';

export interface RouteMatchOutcome extends MatchOutcome {
  /** runtime_fraction default probability (0..1) when the route has one. */
  probability?: number;
}

function pathOutcome(m: J, ctx: SimCtx): MatchOutcome {
  const caseSensitive = bool(m, 'case_sensitive') !== false;
  const fold = (s: string) => (caseSensitive ? s : s.toLowerCase());
  const path = fold(ctx.path);
  const prefix = str(m, 'prefix');
  if (prefix !== undefined)
    return path.startsWith(fold(prefix)) ? { match: true } : { match: false, reason: `path ${ctx.path} does not match prefix ${prefix}` };
  const exact = str(m, 'path');
  if (exact !== undefined)
    return path === fold(exact) ? { match: true } : { match: false, reason: `path ${ctx.path} does not match path ${exact}` };
  const sep = str(m, 'path_separated_prefix');
  if (sep !== undefined) {
    const p = fold(sep);
    return path === p || path.startsWith(p + '/')
      ? { match: true }
      : { match: false, reason: `path ${ctx.path} does not match path_separated_prefix ${sep}` };
  }
  const sr = obj(m, 'safe_regex');
  if (sr) {
    const re = str(sr, 'regex') ?? '';
    const rx = fullRegex(re);
    if (!rx) return { match: false, reason: `regex ${re} is not supported by the simulator` };
    return rx.fullMatch(ctx.path) ? { match: true } : { match: false, reason: `path ${ctx.path} does not match regex ${re}` };
  }
  if (has(m, 'connect_matcher'))
    return ctx.method === 'CONNECT' ? { match: true } : { match: false, reason: `method ${ctx.method} is not CONNECT` };
  if (has(m, 'path_match_policy')) return { match: false, reason: 'path_match_policy is not supported by the simulator' };
  return { match: false, reason: 'route match has no path specifier' };
}

const DENOMINATOR: Record<string, number> = { HUNDRED: 100, TEN_THOUSAND: 10_000, MILLION: 1_000_000 };

/** Default probability of a RuntimeFractionalPercent (the runtime key itself is not known here). */
export function runtimeProbability(rf: J): number {
  const d = obj(rf, 'default_value');
  const n = num(d, 'numerator') ?? 0;
  const den = DENOMINATOR[str(d, 'denominator') ?? 'HUNDRED'] ?? 100;
  return Math.min(1, Math.max(0, n / den));
}

export function matchRoute(route: J, ctx: SimCtx): RouteMatchOutcome {
  const m = obj(route, 'match');
  if (!m) return { match: false, reason: 'route has no match' };
  const p = pathOutcome(m, ctx);
  if (!p.match) return p;
  const h = matchHeaders(arr(m, 'headers').filter(isObj), ctx.headers);
  if (!h.match) return h;
  const params = parseQuery(ctx.query);
  for (const q of arr(m, 'query_parameters').filter(isObj)) {
    const r = matchQueryParam(q, params);
    if (!r.match) return r;
  }
  if (has(m, 'grpc')) {
    const ct = ctx.headers.get('content-type') ?? '';
    if (!ct.startsWith('application/grpc')) return { match: false, reason: 'not a gRPC request (content-type)' };
  }
  const tc = obj(m, 'tls_context');
  if (tc) {
    const wantTls = bool(tc, 'presented') ?? bool(tc, 'validated');
    if (wantTls !== undefined && wantTls !== (ctx.tls !== 'plaintext'))
      return { match: false, reason: `tls_context requires ${wantTls ? 'a' : 'no'} client certificate` };
  }
  if (arr(m, 'dynamic_metadata').length > 0) return { match: false, reason: 'dynamic_metadata matching is not supported by the simulator' };
  if (has(m, 'filter_state')) return { match: false, reason: 'filter_state matching is not supported by the simulator' };
  const rf = obj(m, 'runtime_fraction');
  if (rf) {
    const probability = runtimeProbability(rf);
    if (probability === 0) return { match: false, reason: 'runtime_fraction is 0%', probability };
    return { match: true, probability };
  }
  return { match: true };
}
