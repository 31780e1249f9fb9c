// The HTTP part of the walk: HCM → route configuration → virtual host → route → action.
import { obj, objs, str, type J } from './json';
import { hostStripping, selectVirtualHost } from './virtualHost';
import { matchRoute } from './routeMatch';
import { routeTarget, sourceOf, type Target } from './action';
import type { Rejection, SimCtx, SimRedirect, SimSource } from './types';
import { stripPort } from './types';

export interface HttpWalk {
  routeConfig?: string;
  virtualHost?: string;
  route?: string;
  routeIndex?: number;
  target?: Target;
  source?: SimSource;
  runtimeFraction?: number;
  redirect?: SimRedirect;
  rejected: Rejection[];
  error?: string;
}

/** Envoy answers 301 to https when the virtual host requires TLS (VirtualHost.require_tls). */
function tlsRedirect(vh: J, ctx: SimCtx): boolean {
  if (ctx.tls !== 'plaintext') return false;
  const req = str(vh, 'require_tls');
  if (req === 'ALL') return true;
  if (req === 'EXTERNAL_ONLY') return ctx.headers.get('x-envoy-internal') !== 'true';
  return false;
}

/** Walks an HCM (rds or inline route_config) against the request. */
export function walkHcm(hcm: J, routes: J[], ctx: SimCtx): HttpWalk {
  const w: HttpWalk = { rejected: [] };
  let rc = obj(hcm, 'route_config');
  const rds = obj(hcm, 'rds');
  if (!rc && rds) {
    const name = str(rds, 'route_config_name') ?? '';
    w.routeConfig = name;
    rc = routes.find((r) => str(r, 'name') === name);
    if (!rc) {
      w.rejected.push({ hop: 'routeConfig', name, reason: 'route configuration not in the config (RDS not received)' });
      w.error = 'no virtual host matched';
      return w;
    }
  } else if (rc) {
    const name = str(rc, 'name');
    if (name !== undefined) w.routeConfig = name;
  }
  if (!rc) {
    w.error = obj(hcm, 'scoped_routes') ? 'scoped_routes are not supported by the simulator' : 'no route configuration';
    return w;
  }
  return walkRouteConfig(rc, ctx, hcm, w);
}

/** Walks one RouteConfiguration (virtual host → route → action); `hcm` supplies host-port stripping flags. */
export function walkRouteConfig(rc: J, ctx: SimCtx, hcm: J | undefined, w: HttpWalk = { rejected: [] }): HttpWalk {
  const pick = selectVirtualHost(rc, ctx.host, hostStripping(rc, hcm, ctx.port));
  w.rejected.push(...pick.rejected);
  const vh = pick.vhost;
  if (!vh) {
    w.error = 'no virtual host matched';
    return w;
  }
  w.virtualHost = str(vh, 'name') ?? `virtual_hosts[${pick.index ?? 0}]`;
  if (tlsRedirect(vh, ctx)) {
    w.redirect = { status: 301, location: `https://${stripPort(ctx.host)}${ctx.headers.get(':path') ?? ctx.path}` };
    w.error = 'tls required, sending 301';
    return w;
  }
  if (obj(vh, 'matcher')) {
    w.error = 'virtual host route matchers (matcher trees) are not supported by the simulator';
    return w;
  }
  const routes = objs(vh, 'routes');
  for (let i = 0; i < routes.length; i++) {
    const r = routes[i] as J;
    const name = str(r, 'name') ?? '';
    const m = matchRoute(r, ctx);
    if (!m.match) {
      w.rejected.push({ hop: 'route', name, index: i, reason: m.reason ?? 'does not match' });
      continue;
    }
    w.route = name;
    w.routeIndex = i;
    if (m.probability !== undefined && m.probability < 1) w.runtimeFraction = m.probability;
    const src = sourceOf(r, name || undefined) ?? sourceOf(vh);
    if (src) w.source = src;
    w.target = routeTarget(r, ctx);
    return w;
  }
  w.error = 'no route matched';
  return w;
}

/** The HCM or tcp_proxy of a filter chain (the terminal network filter Envoy hands the stream to). */
export function terminalFilter(chain: J): { hcm?: J; tcp?: J } {
  for (const f of objs(chain, 'filters')) {
    const tc = obj(f, 'typed_config');
    const t = str(tc, '@type') ?? '';
    const n = str(f, 'name') ?? '';
    if (t.endsWith('.HttpConnectionManager') || n === 'envoy.filters.network.http_connection_manager') return { hcm: tc ?? {} };
    if (t.endsWith('.TcpProxy') || n === 'envoy.filters.network.tcp_proxy') return { tcp: tc ?? {} };
  }
  return {};
}

/** Whether the chain terminates TLS (a DownstreamTlsContext transport socket). */
export function terminatesTls(chain: J): boolean {
  const ts = obj(chain, 'transport_socket');
  if (!ts) return false;
  const t = str(obj(ts, 'typed_config'), '@type') ?? '';
  const n = str(ts, 'name') ?? '';
  return t.endsWith('.DownstreamTlsContext') || n === 'tls' || n === 'envoy.transport_sockets.tls';
}
