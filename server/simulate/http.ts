// The HTTP part of the walk: HCM → route configuration → virtual host → route → action.
import { obj, objs, str, type J } from './json';
import { hostStripping, selectVirtualHost } from './virtualHost';
import { matchRoute } from './routeMatch';
import { routeTarget, sourceOf, type Target } from './action';
import type { Rejection, SimCtx, SimHeaderChange, SimRedirect, SimRewrite, SimSource } from './types';
import { stripPort } from './types';
import { applyForwardedProto } from './forwardedProto';
import { requestChanges } from './requestChanges';
import { type RouterCheck, routerCheck } from './routerCheck';

export interface HttpWalk {
  routeConfig?: string;
  virtualHost?: string;
  route?: string;
  routeIndex?: number;
  target?: Target;
  source?: SimSource;
  runtimeFraction?: number;
  redirect?: SimRedirect;
  rewrite?: SimRewrite;
  requestHeaders?: SimHeaderChange[];
  virtualCluster?: string;
  /** Envoy's route table check tool's view of the routed request (./routerCheck). */
  routerCheck?: RouterCheck;
  notes?: string[];
  rejected: Rejection[];
  error?: string;
}

/**
 * Envoy answers 301 to https when the virtual host requires TLS (VirtualHost.require_tls) and the request's
 * x-forwarded-proto (after the connection manager: ./forwardedProto) is not https.
 */
function tlsRedirect(vh: J, ctx: SimCtx): boolean {
  if ((ctx.headers.get('x-forwarded-proto') ?? (ctx.tls === 'plaintext' ? 'http' : 'https')) === 'https') return false;
  const req = str(vh, 'require_tls');
  if (req === 'ALL') return true;
  if (req === 'EXTERNAL_ONLY') return ctx.headers.get('x-envoy-internal') !== 'true';
  return false;
}

/** Walks an HCM (rds or inline route_config) against the request. */
export function walkHcm(hcm: J, routes: J[], given: SimCtx): HttpWalk {
  const ctx = applyForwardedProto(hcm, given);
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
export function walkRouteConfig(rc: J, given: SimCtx, hcm: J | undefined, w: HttpWalk = { rejected: [] }): HttpWalk {
  const ctx = hcm ? given : applyForwardedProto(undefined, given);
  const pick = selectVirtualHost(rc, ctx.host, hostStripping(rc, hcm, ctx.port));
  w.rejected.push(...pick.rejected);
  const vh = pick.vhost;
  if (!vh) {
    w.error = 'no virtual host matched';
    w.routerCheck = routerCheck({ rc, ctx });
    return w;
  }
  w.virtualHost = str(vh, 'name') ?? `virtual_hosts[${pick.index ?? 0}]`;
  if (tlsRedirect(vh, ctx)) {
    w.redirect = { status: 301, location: `https://${stripPort(ctx.host)}${ctx.headers.get(':path') ?? ctx.path}` };
    w.error = 'tls required, sending 301';
    w.routerCheck = routerCheck({ rc, vh, ctx, entry: { kind: 'redirect', redirect: w.redirect } });
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
    const changes = requestChanges(rc, vh, r, ctx);
    // Rewrites and header changes apply to a forwarded request only (not to redirects or direct responses).
    if (w.target.kind === 'cluster' || w.target.kind === 'weighted') {
      if (changes.rewrite) w.rewrite = changes.rewrite;
      if (changes.requestHeaders) w.requestHeaders = changes.requestHeaders;
      if (changes.notes.length > 0) w.notes = changes.notes;
    }
    if (changes.virtualCluster !== undefined) w.virtualCluster = changes.virtualCluster;
    const t = w.target;
    const entry =
      t.kind === 'cluster'
        ? ({ kind: 'route', clusters: { [t.cluster]: 100 } } as const)
        : t.kind === 'weighted'
          ? ({ kind: 'route', clusters: t.clusters } as const)
          : t.kind === 'redirect' || t.kind === 'direct'
            ? t.kind === 'redirect'
              ? ({ kind: 'redirect', redirect: t.redirect } as const)
              : ({ kind: 'direct', status: t.status } as const)
            : undefined;
    w.routerCheck = routerCheck({
      rc,
      vh,
      route: r,
      ctx,
      ...(entry ? { entry } : {}),
      ...(w.rewrite ? { rewrite: w.rewrite } : {}),
      ...(w.requestHeaders ? { requestHeaders: w.requestHeaders } : {}),
      ...(w.virtualCluster !== undefined ? { virtualCluster: w.virtualCluster } : {}),
    });
    return w;
  }
  w.error = 'no route matched';
  w.routerCheck = routerCheck({ rc, vh, ctx });
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
