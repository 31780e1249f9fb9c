// grpcgen: what istiod sends a proxyless gRPC client (node metadata GENERATOR=grpc, or a client asking LDS
// for `host:port` names) — pilot/pkg/networking/grpcgen. Everything is by name: gRPC never subscribes by
// wildcard, so each type is built only for the names the client watches. Pure: reads only its arguments.
//   LDS: API listeners `host:port` (listeners.ts), xDS server listeners (inbound.ts)   RDS: `outbound|PORT||FQDN` route configs (routes.ts)
//   CDS: EDS clusters, ROUND_ROBIN unless consistent hash (xds/clusters/grpc.ts)
//   EDS: the sidecar EDS builder for the requested clusters (localities with load_balancing_weight).
import { collectRouteProvenance, createRouteSourceSink } from '../routeSources';
import { optionsOf, type LoadError, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../../model/mesh';
import type { ClusterJson, ResourceTable } from '../types';
import { buildProxyView } from '../view';
import { buildGrpcClusters } from '../xds/clusters/grpc';
import { buildEndpoints } from '../xds/endpoints';
import { buildGrpcInboundListeners } from './inbound';
import { buildGrpcListeners } from './listeners';
import { buildGrpcRouteConfigs } from './routes';
import { byteCompareBy } from '../../lib/compare';

export { buildGrpcListeners, grpcApiListener, GRPC_HTTP_FILTERS } from './listeners';
export { buildGrpcRouteConfigs } from './routes';
export { buildGrpcInboundListeners } from './inbound';
export { listenerNameFilter, splitHostPort, tryFindFqdn, GRPC_INBOUND_PREFIX } from './listenerNames';

/** The names a gRPC client watches, per type. */
export interface GrpcWatches {
  listeners: readonly string[];
  routes: readonly string[];
  clusters: readonly string[];
  endpoints: readonly string[];
}

const byName = byteCompareBy((r: { name?: string }) => r.name ?? '');

/** EDS clusters for EDS names: the requested cluster's eds service name is its own name in grpcgen. */
function edsClustersFor(names: readonly string[], built: readonly ClusterJson[]): ClusterJson[] {
  const byName = new Map(built.map((c) => [c.name ?? '', c]));
  return names.map((n) => byName.get(n) ?? { name: n, type: 'EDS', edsClusterConfig: { serviceName: n, edsConfig: { ads: {} } } });
}

export function translateGrpc(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  watches: GrpcWatches,
  options: TranslateOptions = optionsOf(snapshot),
): ResourceTable {
  const errors: LoadError[] = [];
  const view = buildProxyView(snapshot, proxy, options);
  const inbound = buildGrpcInboundListeners(view, watches.listeners);
  errors.push(...inbound.errors);
  const listeners = [...buildGrpcListeners(view, watches.listeners), ...inbound.listeners];
  const routeSources = createRouteSourceSink();
  const rds = buildGrpcRouteConfigs(view, watches.routes, routeSources);
  errors.push(...rds.errors);
  const clusters = buildGrpcClusters(view, [...new Set(watches.clusters)]);
  const edsNames = [...new Set(watches.endpoints)];
  const endpoints = edsNames.length === 0 ? [] : buildEndpoints(view, edsClustersFor(edsNames, buildGrpcClusters(view, edsNames)));
  const routes = rds.routes.sort(byName);
  return {
    listeners: listeners.sort(byName),
    routes,
    clusters: clusters.sort(byName),
    endpoints,
    errors,
    provenance: collectRouteProvenance(routes, routeSources),
  };
}
