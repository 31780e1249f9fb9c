// Pure model of "trace this request on meshscope's config and on Envoy's" (issue 21 §4): a request that reaches
// one route of a route configuration (from the route's match and its virtual host's domains), and the two
// simulation results (POST /api/simulate on each side) as rows side by side, each marked when the sides differ.
// Browser-safe.
import type { SimulateResponse } from '@/server/api/contract';
import type { SimMode, SimRequest } from '@/server/simulate/types';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);
const objs = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (o: J | undefined, k: string): string | undefined => (o && typeof o[k] === 'string' ? (o[k] as string) : undefined);

/** The port a route configuration serves, from its name as istiod names them. */
export function routeConfigPort(name: string, virtualHost?: string): number | undefined {
  // Sidecar outbound "9080" (or "host:9080" with a host-scoped Sidecar), Istio's inbound / outbound
  // "inbound|9080||" / "outbound|9080||host" (cluster-style names), gateway "http.8080" / "https.443.srv.gw.ns".
  const m =
    /^(\d{1,5})$/.exec(name) ??
    /:(\d{1,5})$/.exec(name) ??
    /^(?:inbound|outbound)\|(\d{1,5})\|/.exec(name) ??
    /^https?\.(\d{1,5})(?:\.|$)/.exec(name) ??
    (virtualHost ? /:(\d{1,5})$/.exec(virtualHost) : null);
  const port = m ? Number(m[1]) : undefined;
  return port !== undefined && port > 0 && port <= 65535 ? port : undefined;
}

/** The route's path match as a concrete path: prefix / exact path / path_separated_prefix; "/" for a regex. */
function pathOf(match: J | undefined): string {
  const p = str(match, 'path') ?? str(match, 'prefix') ?? str(match, 'path_separated_prefix');
  return p?.startsWith('/') ? p : '/';
}

/** Headers that satisfy the route's non-inverted exact / prefix / present matchers (`:method` becomes the method). */
function headersOf(match: J | undefined): { headers: Record<string, string>; method?: string } {
  const headers: Record<string, string> = {};
  let method: string | undefined;
  for (const h of objs(match?.['headers'])) {
    const name = str(h, 'name');
    if (!name || h['invert_match'] === true) continue;
    const sm = isObj(h['string_match']) ? h['string_match'] : undefined;
    const value =
      str(sm, 'exact') ??
      str(h, 'exact_match') ??
      str(sm, 'prefix') ??
      str(h, 'prefix_match') ??
      (h['present_match'] === true ? 'x' : undefined);
    if (value === undefined) continue;
    if (name === ':method') method = value;
    else if (!name.startsWith(':')) headers[name.toLowerCase()] = value;
  }
  return method ? { headers, method } : { headers };
}

export interface RoutePick {
  routeConfig: string;
  virtualHost: string;
  /** The route's name; with `index`, the route at that position. */
  route?: string;
  index?: number;
}

/**
 * A request that reaches `pick` in the route configuration `rc` (Envoy JSON, proto field names): the first
 * concrete domain of the virtual host as the host, the route's path and header matches, the port from the
 * route configuration's name. `mode`: how the proxy receives it (sidecar outbound, gateway…; inbound for
 * Istio's `inbound|` route configurations). Undefined when the virtual host is not in `rc` or no port is known.
 */
export function requestForRoute(rc: unknown, pick: RoutePick, mode: SimMode): SimRequest | undefined {
  if (!isObj(rc)) return undefined;
  const vh = objs(rc['virtual_hosts']).find((v) => str(v, 'name') === pick.virtualHost);
  if (!vh) return undefined;
  const routes = objs(vh['routes']);
  const route =
    (pick.index !== undefined && (pick.route === undefined || str(routes[pick.index], 'name') === pick.route)
      ? routes[pick.index]
      : undefined) ??
    (pick.route ? routes.find((r) => str(r, 'name') === pick.route) : undefined) ??
    routes[0];
  const port = routeConfigPort(pick.routeConfig, pick.virtualHost);
  if (port === undefined) return undefined;
  const match = isObj(route?.['match']) ? route['match'] : undefined;
  const { headers, method } = headersOf(match);
  const domain = (Array.isArray(vh['domains']) ? (vh['domains'] as unknown[]) : []).find(
    (d): d is string => typeof d === 'string' && !d.includes('*'),
  );
  const req: SimRequest = { mode: pick.routeConfig.startsWith('inbound|') ? 'inbound' : mode, port, path: pathOf(match) };
  if (domain) req.host = domain;
  if (method) req.method = method;
  if (Object.keys(headers).length) req.headers = headers;
  return req;
}

export interface TraceRow {
  field: string;
  label: string;
  expected: string;
  actual: string;
  differs: boolean;
}

const weights = (w: Record<string, number> | undefined): string =>
  w
    ? Object.entries(w)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ')
    : '';

/** One line per hop the simulator reports; the outcome ("error") last. Every row appears when either side has it. */
export function traceRows(expected: SimulateResponse, actual: SimulateResponse): TraceRow[] {
  const fields: Array<[string, string, (r: SimulateResponse) => string]> = [
    ['listener', 'listener', (r) => r.listener ?? ''],
    ['filterChain', 'filter chain', (r) => r.filterChain ?? ''],
    [
      'authorization',
      'authorization',
      (r) => (r.authorization ? `${r.authorization.decision}${r.authorization.policy ? ` (${r.authorization.policy})` : ''}` : ''),
    ],
    ['routeConfig', 'route config', (r) => r.routeConfig ?? ''],
    ['virtualHost', 'virtual host', (r) => r.virtualHost ?? ''],
    ['route', 'route', (r) => (r.routeIndex !== undefined ? `#${r.routeIndex}${r.route ? ` ${r.route}` : ''}` : (r.route ?? ''))],
    ['cluster', 'cluster', (r) => r.cluster ?? ''],
    ['weightedClusters', 'weighted clusters', (r) => weights(r.weightedClusters)],
    ['timeout', 'timeout', (r) => r.routerCheck?.timeout ?? ''],
    ['rewrite', 'rewrite', (r) => (r.rewrite ? [r.rewrite.path, r.rewrite.host].filter(Boolean).join(' ') : '')],
    ['redirect', 'redirect', (r) => (r.redirect ? `${r.redirect.status} ${r.redirect.location}` : '')],
    ['directResponse', 'direct response', (r) => (r.directResponse ? String(r.directResponse.status) : '')],
    ['endpoints', 'endpoints', (r) => (r.endpoints ? r.endpoints.join(', ') || '(none)' : '')],
    ['error', 'outcome', (r) => r.error ?? 'routed'],
  ];
  return fields
    .map(([field, label, get]) => {
      const e = get(expected);
      const a = get(actual);
      return { field, label, expected: e, actual: a, differs: e !== a };
    })
    .filter((r) => r.expected !== '' || r.actual !== '');
}
