// LDS for proxyless gRPC (pilot/pkg/networking/grpcgen/lds.go: BuildListeners, buildOutboundListeners).
// One API listener per requested `host:port` (the name exactly as the client asked, short names included)
// for every service the proxy imports; its HttpConnectionManager takes routes over ADS from the route
// config named like the service's default cluster (`outbound|PORT||FQDN`, grpcgen.go clusterKey) and runs
// the fault filter then the router (gRPC NACKs a router that is not last).
import { EXT } from '../../envoy/typeUrls';
import { outboundCluster } from '../names';
import type { ListenerJson } from '../types';
import type { ProxyView } from '../view/types';
import { listenerNameFilter } from './listenerNames';

/** xdsfilters.Fault + xdsfilters.Router, in that order (grpcgen supportedFilters). */
export const GRPC_HTTP_FILTERS = [
  { name: 'envoy.filters.http.fault', typedConfig: { '@type': EXT.fault } },
  { name: 'envoy.filters.http.router', typedConfig: { '@type': EXT.router } },
];

/** net.JoinHostPort */
const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

export function grpcApiListener(name: string, address: string, port: number, routeConfigName: string): ListenerJson {
  return {
    name,
    address: { socketAddress: { address, portValue: port } },
    apiListener: {
      apiListener: {
        '@type': EXT.hcm,
        httpFilters: GRPC_HTTP_FILTERS,
        rds: { configSource: { ads: {} }, routeConfigName },
      },
    },
  } as ListenerJson;
}

/** Listeners for the requested names; names that match no imported service produce nothing (as istiod). */
export function buildGrpcListeners(view: ProxyView, names: Iterable<string>): ListenerJson[] {
  const filter = listenerNameFilter(names, view.proxy.namespace, view.options.domainSuffix);
  if (filter.size === 0) return [];
  const out: ListenerJson[] = [];
  const seen = new Set<string>();
  for (const svc of view.services) {
    const entry = filter.get(svc.hostname);
    if (!entry) continue;
    for (const host of [...entry.requestedHosts].sort()) {
      for (const p of svc.ports) {
        if (entry.ports && !entry.ports.has(p.port)) continue;
        const name = joinHostPort(host, p.port);
        if (seen.has(name)) continue; // first imported service with the hostname wins
        seen.add(name);
        out.push(grpcApiListener(name, svc.address, p.port, outboundCluster(p.port, svc.hostname)));
      }
    }
  }
  return out;
}
