// Gateway HTTP route configurations (networking/core/gateway.go:buildGatewayHTTPRouteConfig): per server
// of the route name, per VirtualService bound to the server's Gateway (VirtualServicesForGateway order),
// the hosts both sides admit become virtual hosts `<host>:<server port>`; a host seen again (another
// VirtualService or server) gets the routes appended (host merging). Then identical vhosts are collapsed,
// catch-all routes moved last, vhosts sorted by name; `blackhole:<port>` when nothing binds.
import type { RouteJson, VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { LoadError } from '../../../model/mesh';
import { domainName } from '../../names';
import type { RouteSourceSink } from '../../routeSources';
import type { GatewayView, ProxyView } from '../../view/types';
import { buildHttpRoutesForVirtualService, gatewayRouteContext } from '../routes';
import { MAX_DIRECT_RESPONSE_BODY_BYTES } from '../routes/sidecarRouteConfigs';
import { byteCompareBy } from '../../../lib/compare';
import { collapseDuplicateRoutes, sortVHostRoutes } from './vhosts';

const byName = byteCompareBy((v: VirtualHostJson) => v.name ?? '');

export function buildGatewayRouteConfig(
  view: ProxyView,
  gateway: GatewayView,
  routeName: string,
  routeSources?: RouteSourceSink,
): { route: RouteConfigurationJson; errors: LoadError[] } {
  const errors: LoadError[] = [];
  const servers = gateway.merged.serversByRouteName.get(routeName);
  if (!servers || servers.length === 0) {
    return { route: { name: routeName, virtualHosts: [], validateClusters: false }, errors };
  }
  // routes per (gateway, VirtualService), built once with the port of the first server needing them
  const built = new Map<string, RouteJson[]>();
  const vhosts = new Map<string, VirtualHostJson>();
  for (const s of servers) {
    const port = s.server.port.number;
    const redirect = s.server.tls?.httpsRedirect === true;
    const gatewayNames: ReadonlySet<string> = new Set([s.gatewayName]);
    for (const { vs, hosts } of gateway.httpBindings(s)) {
      const key = `${s.gatewayName}\u0000${vs.meta.namespace}/${vs.meta.name}`;
      let routes = built.get(key);
      if (!routes) {
        const ctx = gatewayRouteContext(view, {
          serverPort: port,
          gatewayNames,
          vsNamespace: vs.meta.namespace,
          isTLS: s.server.tls !== undefined,
          ...(routeSources ? { routeSources } : {}),
        });
        const r = buildHttpRoutesForVirtualService(vs, ctx);
        errors.push(...r.errors);
        routes = r.routes;
        built.set(key, routes);
      }
      for (const raw of hosts) {
        const h = raw.toLowerCase();
        const vh = vhosts.get(h);
        if (vh) {
          // vh.routes is this vhost's own array (a copy when created): append in place
          if (vh.routes) for (const r of routes) vh.routes.push(r);
          else vh.routes = [...routes];
          if (redirect) vh.requireTls = 'ALL';
          continue;
        }
        const created: VirtualHostJson = { name: domainName(h, port), domains: [h], routes: [...routes], includeRequestAttemptCount: true };
        if (redirect) created.requireTls = 'ALL';
        vhosts.set(h, created);
      }
    }
    // a server host with httpsRedirect always gets a vhost (redirect only, when nothing routes it)
    if (redirect) {
      for (const raw of s.server.hosts) {
        const h = raw.toLowerCase();
        const vh = vhosts.get(h);
        if (vh) vh.requireTls = 'ALL';
        else vhosts.set(h, { name: domainName(h, port), domains: [h], includeRequestAttemptCount: true, requireTls: 'ALL' });
      }
    }
  }
  let virtualHosts: VirtualHostJson[];
  if (vhosts.size === 0) {
    const port = (servers[0] as (typeof servers)[number]).server.port.number;
    virtualHosts = [{ name: domainName('blackhole', port), domains: ['*'], routes: [] }];
  } else {
    virtualHosts = collapseDuplicateRoutes(vhosts).map((vh) => (vh.routes ? { ...vh, routes: sortVHostRoutes(vh.routes) } : vh));
  }
  virtualHosts.sort(byName);
  return {
    route: {
      name: routeName,
      virtualHosts,
      validateClusters: false,
      maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY_BYTES,
      ignorePortInHostMatching: true,
    },
    errors,
  };
}
