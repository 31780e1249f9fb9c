// Sidecar outbound route configurations (httproute.go:buildSidecarOutboundHTTPRouteConfig):
// `<port>` per HTTP port with the catch-all vhost appended, and the sniffed `<fqdn>:<port>` variant.
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { LoadError, ServiceModel } from '../../../model/mesh';
import { sidecarRouteName, sniffedRouteName } from '../../names';
import type { RouteSourceSink } from '../../routeSources';
import type { ProxyView } from '../../view/types';
import { catchAllVirtualHost } from './catchAll';
import { dedupeErrors } from './httpRoutes';
import { buildSidecarVirtualHosts } from './virtualHosts';

/** route.go DefaultMaxDirectResponseBodySizeBytes (1 MiB). */
export const MAX_DIRECT_RESPONSE_BODY_BYTES = 1024 * 1024;

function routeConfig(name: string, virtualHosts: RouteConfigurationJson['virtualHosts']): RouteConfigurationJson {
  return {
    name,
    virtualHosts: virtualHosts ?? [],
    validateClusters: false,
    maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY_BYTES,
    ignorePortInHostMatching: true,
  };
}

/** One RouteConfiguration named `<port>` per given port (vhosts sorted by name, then allow_any / block_all). */
export function buildSidecarRouteConfigs(
  view: ProxyView,
  ports: readonly number[],
  routeSources?: RouteSourceSink,
): { routes: RouteConfigurationJson[]; errors: LoadError[] } {
  const routes: RouteConfigurationJson[] = [];
  const errors: LoadError[] = [];
  const egressProxy = view.sidecar?.spec?.outboundTrafficPolicy?.egressProxy;
  for (const port of [...new Set(ports)]) {
    // GetEgressListenerForRDS: a Sidecar egress listener on this port scopes the services and VirtualServices.
    const built = buildSidecarVirtualHosts(view.routeView(port), port, routeSources);
    errors.push(...built.errors);
    const catchAll = catchAllVirtualHost(view.outboundTrafficPolicy, view.outboundTrafficPolicy === 'ALLOW_ANY' ? egressProxy : undefined);
    routes.push(routeConfig(sidecarRouteName(port), [...built.vhosts, catchAll]));
  }
  return { routes, errors: dedupeErrors(errors) };
}

/**
 * Route config `<fqdn>:<port>` of a sniffed listener bound to a service VIP: only the virtual host
 * holding the service hostname, with domains `*` when it is the only one; no catch-all vhost.
 */
export function buildSniffedRouteConfig(
  view: ProxyView,
  service: ServiceModel,
  port: number,
  routeSources?: RouteSourceSink,
): { route: RouteConfigurationJson; errors: LoadError[] } {
  const name = sniffedRouteName(service.hostname, port);
  const built = buildSidecarVirtualHosts(view.routeView(port), port, routeSources);
  const host = service.hostname.toLowerCase();
  const matched = built.vhosts.filter((vh) => (vh.domains ?? []).some((d) => d === name || d === host));
  const vhosts = matched.length === 1 ? [{ ...(matched[0] as (typeof matched)[number]), domains: ['*'] }] : matched;
  return { route: routeConfig(name, vhosts), errors: built.errors };
}
