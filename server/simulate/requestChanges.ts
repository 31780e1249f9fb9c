// What Envoy's router does to the request it forwards on the matched route (meshscope extension of the
// simulate result, additive to DESIGN.md §3): the rewritten path and host, the request header changes in
// the order Envoy applies them, and the virtual cluster the request is counted against.
// Envoy: source/common/router/config_impl.cc (RouteEntryImplBase::finalizeRequestHeaders, currentUrlPathAfterRewrite /
// rewritePathByPrefix, regex_rewrite; getRequestHeaderParsers: route, then virtual host, then route configuration
// unless most_specific_header_mutations_wins; VirtualHostImpl::virtualClusterFromEntries), header_parser.cc
// (removals before additions; HeaderValueOption.append_action).
import { compileRe2 } from '../lib/re2';
import { arr, bool, isObj, obj, objs, str, type J } from './json';
import { matchHeaders } from './headerMatch';
import type { SimCtx, SimHeaderChange, SimRewrite } from './types';

export interface RequestChanges {
  rewrite?: SimRewrite;
  requestHeaders?: SimHeaderChange[];
  virtualCluster?: string;
  notes: string[];
}

const ACTION: Record<string, SimHeaderChange['op']> = {
  APPEND_IF_EXISTS_OR_ADD: 'append',
  ADD_IF_ABSENT: 'addIfAbsent',
  OVERWRITE_IF_EXISTS_OR_ADD: 'set',
  OVERWRITE_IF_EXISTS: 'overwriteIfExists',
};

/** One level's header parser: its removals first, then its additions (HeaderParser::evaluateHeaders). */
function levelChanges(holder: J | undefined, from: SimHeaderChange['from']): SimHeaderChange[] {
  if (!holder) return [];
  const out: SimHeaderChange[] = [];
  for (const name of arr(holder, 'request_headers_to_remove')) if (typeof name === 'string') out.push({ op: 'remove', name, from });
  for (const opt of objs(holder, 'request_headers_to_add')) {
    const h = obj(opt, 'header');
    const name = str(h, 'key');
    if (name === undefined) continue;
    const action = str(opt, 'append_action');
    // The deprecated `append` (default true) when no append_action is set.
    const op = action ? (ACTION[action] ?? 'append') : bool(opt, 'append') === false ? 'set' : 'append';
    out.push({ op, name, value: str(h, 'value') ?? str(h, 'raw_value') ?? '', from });
  }
  return out;
}

/** The prefix the route matched on (prefix, path_separated_prefix, or the exact path), for prefix_rewrite. */
export function matchedPrefix(route: J): string | undefined {
  const m = obj(route, 'match');
  return str(m, 'prefix') ?? str(m, 'path_separated_prefix') ?? str(m, 'path');
}

/** Envoy's regex_rewrite / host_rewrite_path_regex: re2::RE2::GlobalReplace (server/lib/re2); undefined when invalid. */
export function substitute(input: string, pattern: string, substitution: string): string | undefined {
  const r = compileRe2(pattern);
  return r.ok ? r.re.globalReplace(input, substitution) : undefined;
}

function rewriteOf(route: J, ctx: SimCtx, notes: string[]): SimRewrite | undefined {
  const ra = obj(route, 'route');
  if (!ra) return undefined;
  const out: SimRewrite = {};
  const fullPath = ctx.headers.get(':path') ?? ctx.path;
  const query = ctx.query !== '' ? `?${ctx.query}` : '';
  const prefixRewrite = str(ra, 'prefix_rewrite');
  const regex = obj(ra, 'regex_rewrite');
  if (prefixRewrite !== undefined) {
    const p = matchedPrefix(route);
    // Envoy replaces the matched prefix's length of the path, whatever its case (case_sensitive: false).
    if (p !== undefined) out.path = prefixRewrite + fullPath.slice(p.length);
  } else if (regex) {
    const pattern = str(obj(regex, 'pattern'), 'regex');
    const rewritten = pattern === undefined ? undefined : substitute(ctx.path, pattern, str(regex, 'substitution') ?? '');
    if (rewritten === undefined) notes.push(`regex_rewrite ${pattern ?? ''} is not supported by the simulator`);
    else out.path = rewritten + query;
  } else if (obj(ra, 'path_rewrite_policy')) notes.push('path_rewrite_policy is not supported by the simulator');
  const literal = str(ra, 'host_rewrite_literal');
  const header = str(ra, 'host_rewrite_header');
  const hostRegex = obj(ra, 'host_rewrite_path_regex');
  if (literal !== undefined) out.host = literal;
  else if (bool(ra, 'auto_host_rewrite') === true) out.autoHost = true;
  else if (header !== undefined) {
    const v = ctx.headers.get(header.toLowerCase());
    if (v) out.host = v;
  } else if (hostRegex) {
    const pattern = str(obj(hostRegex, 'pattern'), 'regex');
    const h = pattern === undefined ? undefined : substitute(ctx.path, pattern, str(hostRegex, 'substitution') ?? '');
    if (h !== undefined) out.host = h;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** VirtualHostImpl::virtualClusterFromEntries: the first virtual cluster whose header matchers all match; `other` when none does. */
function virtualClusterOf(vh: J, ctx: SimCtx): string | undefined {
  const vcs = objs(vh, 'virtual_clusters');
  if (vcs.length === 0) return undefined;
  for (const vc of vcs) {
    const headers = arr(vc, 'headers').filter(isObj);
    if (headers.length > 0 && matchHeaders(headers, ctx.headers).match) return str(vc, 'name') ?? '';
  }
  return 'other';
}

export function requestChanges(rc: J | undefined, vh: J, route: J, ctx: SimCtx): RequestChanges {
  const notes: string[] = [];
  const res: RequestChanges = { notes };
  const rewrite = rewriteOf(route, ctx, notes);
  if (rewrite) res.rewrite = rewrite;
  const levels = [
    ...weightedClusterChanges(route, notes),
    ...levelChanges(route, 'route'),
    ...levelChanges(vh, 'virtualHost'),
    ...levelChanges(rc, 'routeConfig'),
  ];
  // most_specific_header_mutations_wins reverses route / virtual host / route configuration.
  const changes =
    bool(rc, 'most_specific_header_mutations_wins') === true
      ? [
          ...weightedClusterChanges(route, []),
          ...levelChanges(rc, 'routeConfig'),
          ...levelChanges(vh, 'virtualHost'),
          ...levelChanges(route, 'route'),
        ]
      : levels;
  if (changes.length > 0) res.requestHeaders = changes;
  const vc = virtualClusterOf(vh, ctx);
  if (vc !== undefined) res.virtualCluster = vc;
  return res;
}

/** Header changes of the weighted cluster entry (applied before the route's); known only when there is one entry. */
function weightedClusterChanges(route: J, notes: string[]): SimHeaderChange[] {
  const clusters = objs(obj(obj(route, 'route'), 'weighted_clusters'), 'clusters');
  if (clusters.length === 1) return levelChanges(clusters[0], 'weightedCluster');
  if (clusters.some((c) => objs(c, 'request_headers_to_add').length > 0 || arr(c, 'request_headers_to_remove').length > 0))
    notes.push('weighted clusters carry their own request header changes, applied to the cluster each request is sent to');
  return [];
}
