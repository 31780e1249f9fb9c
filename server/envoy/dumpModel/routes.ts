// RouteConfiguration → virtual hosts → routes, as table rows: match, action, weighted clusters with %.
import { arr, istioSource, num, obj, str } from './json';

export interface WeightedCluster {
  name: string;
  weight: number;
  /** Share of the total weight, 0–100, rounded to 2 decimals. */
  percent: number;
}

export interface RouteRow {
  name?: string;
  match: string;
  /** route | redirect | direct_response | filter_action | (none) */
  action: string;
  clusters: WeightedCluster[];
  /** Redirect target, direct response status, timeout, retries, rewrites… */
  details: string[];
  /** Istio config the route came from (filter_metadata.istio.config). */
  source?: string;
}

export interface VirtualHostRow {
  name: string;
  domains: string[];
  routes: RouteRow[];
}

export interface RouteConfigRow {
  name: string;
  virtualHosts: VirtualHostRow[];
}

function stringMatch(m: unknown): string {
  const s = obj(m);
  for (const k of ['exact', 'prefix', 'suffix', 'contains']) {
    const v = str(s[k]);
    if (v !== undefined) return `${k} ${JSON.stringify(v)}`;
  }
  const re = str(obj(s.safe_regex).regex);
  if (re !== undefined) return `regex ${JSON.stringify(re)}`;
  return 'any';
}

function headerMatch(h: unknown): string {
  const m = obj(h);
  const name = str(m.name) ?? '?';
  const not = m.invert_match === true ? 'not ' : '';
  if (m.present_match !== undefined) return `${not}header ${name} present`;
  if (m.string_match !== undefined) return `${not}header ${name} ${stringMatch(m.string_match)}`;
  for (const k of ['exact_match', 'prefix_match', 'suffix_match', 'contains_match']) {
    const v = str(m[k]);
    if (v !== undefined) return `${not}header ${name} ${k.replace('_match', '')} ${JSON.stringify(v)}`;
  }
  const re = str(obj(m.safe_regex_match).regex);
  if (re !== undefined) return `${not}header ${name} regex ${JSON.stringify(re)}`;
  return `${not}header ${name}`;
}

export function summarizeRouteMatch(match: unknown): string {
  const m = obj(match);
  const parts: string[] = [];
  for (const k of ['prefix', 'path', 'path_separated_prefix']) {
    const v = str(m[k]);
    if (v !== undefined) parts.push(`${k} ${v}`);
  }
  const re = str(obj(m.safe_regex).regex);
  if (re !== undefined) parts.push(`regex ${re}`);
  if (m.case_sensitive === false) parts.push('case-insensitive');
  for (const h of arr(m.headers)) parts.push(headerMatch(h));
  for (const q of arr(m.query_parameters)) {
    const qp = obj(q);
    parts.push(`query ${str(qp.name) ?? '?'} ${qp.present_match === true ? 'present' : stringMatch(qp.string_match)}`);
  }
  return parts.join(', ') || '*';
}

export function weightedClusters(action: unknown): WeightedCluster[] {
  const a = obj(action);
  const single = str(a.cluster);
  if (single !== undefined) return [{ name: single, weight: 100, percent: 100 }];
  const header = str(a.cluster_header);
  if (header !== undefined) return [{ name: `(header ${header})`, weight: 100, percent: 100 }];
  const list = arr(obj(a.weighted_clusters).clusters).map((c) => ({ name: str(obj(c).name) ?? '', weight: num(obj(c).weight) ?? 0 }));
  // Envoy: a cluster's share is weight / sum of weights (total_weight is deprecated and defaults to the sum).
  const total = list.reduce((s, c) => s + c.weight, 0);
  return list.map((c) => ({ ...c, percent: total > 0 ? Math.round((c.weight / total) * 10000) / 100 : 0 }));
}

/** Envoy's RedirectAction in words: scheme (`https_redirect` or `scheme_redirect`), host, port, path or
 *  prefix rewrite, and the response code (route_components.proto: `response_code` defaults to
 *  MOVED_PERMANENTLY, 301). */
function redirectDetail(redirect: Record<string, unknown>): string {
  const scheme = redirect.https_redirect === true ? 'https' : str(redirect.scheme_redirect);
  const port = num(redirect.port_redirect);
  const prefix = str(redirect.prefix_rewrite);
  const regex = obj(redirect.regex_rewrite);
  const path =
    str(redirect.path_redirect) ??
    (prefix !== undefined ? `prefix → ${prefix}` : undefined) ??
    (Object.keys(regex).length ? `regex ${str(obj(regex.pattern).regex) ?? '?'} → ${str(regex.substitution) ?? ''}` : undefined);
  const target = [scheme, str(redirect.host_redirect), port !== undefined ? `port ${port}` : undefined, path].filter(Boolean).join(' ');
  return `redirect ${target || '(same)'} ${str(redirect.response_code) ?? 'MOVED_PERMANENTLY'}`;
}

/**
 * What a route does besides choosing clusters, in Envoy's terms (route_components.proto RouteAction):
 * timeout; retries (`num_retries` defaults to 1) and their `retry_on`; prefix / regex / host rewrites;
 * mirrors; a redirect; a direct response status; per-filter config. One reading for the API's tables
 * and the UI's rows.
 */
export function routeDetails(r: Record<string, unknown>): string[] {
  const d: string[] = [];
  const a = obj(r.route);
  const timeout = str(a.timeout);
  if (timeout !== undefined) d.push(`timeout ${timeout}`);
  const retry = obj(a.retry_policy);
  if (Object.keys(retry).length) {
    const on = str(retry.retry_on);
    d.push(`retries ${String(num(retry.num_retries) ?? 1)}${on ? ` on ${on}` : ''}`);
  }
  const pr = str(a.prefix_rewrite);
  if (pr !== undefined) d.push(`rewrite prefix → ${pr}`);
  const rr = obj(a.regex_rewrite);
  if (Object.keys(rr).length) d.push(`rewrite regex ${str(obj(rr.pattern).regex) ?? '?'} → ${str(rr.substitution) ?? ''}`);
  const host = str(a.host_rewrite_literal);
  if (host !== undefined) d.push(`rewrite host → ${host}`);
  const mirrors = arr(a.request_mirror_policies).map((m) => str(obj(m).cluster) ?? '?');
  if (mirrors.length) d.push(`mirror ${mirrors.join(', ')}`);
  // An empty RedirectAction is still a redirect (same URL, 301).
  if (r.redirect !== undefined) d.push(redirectDetail(obj(r.redirect)));
  const direct = obj(r.direct_response);
  if (Object.keys(direct).length) d.push(`status ${String(direct.status ?? '')}`);
  const filters = Object.keys(obj(r.typed_per_filter_config));
  if (filters.length) d.push(`per-filter: ${filters.join(', ')}`);
  return d;
}

/** Which of Route's `action` oneof is set: route | redirect | direct_response | filter_action | (none). */
export function routeAction(r: Record<string, unknown>): string {
  if (r.route !== undefined) return 'route';
  if (r.redirect !== undefined) return 'redirect';
  if (r.direct_response !== undefined) return 'direct_response';
  if (r.filter_action !== undefined) return 'filter_action';
  return '(none)';
}

function summarizeRoute(route: unknown): RouteRow {
  const r = obj(route);
  const row: RouteRow = {
    match: summarizeRouteMatch(r.match),
    action: routeAction(r),
    clusters: r.route !== undefined ? weightedClusters(r.route) : [],
    details: routeDetails(r),
  };
  const name = str(r.name);
  if (name !== undefined) row.name = name;
  const source = istioSource(r);
  if (source !== undefined) row.source = source;
  return row;
}

export function summarizeRouteConfig(rc: unknown): RouteConfigRow {
  const c = obj(rc);
  return {
    name: str(c.name) ?? '',
    virtualHosts: arr(c.virtual_hosts).map((vh) => {
      const v = obj(vh);
      return { name: str(v.name) ?? '', domains: arr(v.domains).map(String), routes: arr(v.routes).map(summarizeRoute) };
    }),
  };
}
