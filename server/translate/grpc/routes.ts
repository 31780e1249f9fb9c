// RDS for proxyless gRPC (pilot/pkg/networking/grpcgen/rds.go: BuildHTTPRoutes, buildHTTPRoute).
// gRPC asks for the route config its API listener names: `outbound|PORT||FQDN`. istiod answers with the
// sidecar outbound virtual hosts of that port (BuildSidecarOutboundVirtualHosts: the same VirtualService
// routing as sidecars — weights, header matches, retries, faults — and the same domains, so the client's
// `host:port` authority matches) and nothing else: no catch-all vhost, no Envoy-only route-config fields.
// Domains keep their `:port` variants for gRPC: httproute.go generateVirtualHostDomains appends them
// (appendDomainPort) unless SidecarIgnorePort(node), which is false for proxyless gRPC — gRPC matches the
// authority with its port and has no ignore_port_in_host_matching.
import type { LoadError } from '../../model/mesh';
import { domainName, parseClusterName } from '../names';
import type { VirtualHostJson } from '../../gen/envoy/config/route/v3/route_components_pb';
import type { RouteConfigurationJson } from '../types';
import type { RouteSourceSink } from '../routeSources';
import type { ProxyView } from '../view/types';
import { buildSidecarVirtualHosts } from '../xds/routes/virtualHosts';

/** appendDomainPort for every domain: `d`, then `d:port`. */
export function withPortDomains(vhosts: readonly VirtualHostJson[], port: number): VirtualHostJson[] {
  return vhosts.map((vh) => ({ ...vh, domains: (vh.domains ?? []).flatMap((d) => (d === '*' ? [d] : [d, domainName(d, port)])) }));
}

export function buildGrpcRouteConfigs(
  view: ProxyView,
  names: Iterable<string>,
  routeSources?: RouteSourceSink,
): { routes: RouteConfigurationJson[]; errors: LoadError[] } {
  const routes: RouteConfigurationJson[] = [];
  const errors: LoadError[] = [];
  const byPort = new Map<number, ReturnType<typeof buildSidecarVirtualHosts>>();
  for (const name of new Set(names)) {
    const parsed = parseClusterName(name);
    if (!parsed || parsed.hostname === '' || parsed.port === 0) continue; // istiod: "Failed to parse"
    let built = byPort.get(parsed.port);
    if (!built) {
      built = buildSidecarVirtualHosts(view, parsed.port, routeSources);
      byPort.set(parsed.port, built);
      errors.push(...built.errors);
    }
    routes.push({ name, virtualHosts: withPortDomains(built.vhosts, parsed.port) });
  }
  return { routes, errors };
}
