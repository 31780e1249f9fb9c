// Outbound tcp_proxy network filters for tcp/tls routes and service defaults
// (networkfilter.go: buildOutboundNetworkFilters, …WithSingleDestination, …WithWeightedClusters,
// maybeSetHashPolicy, buildNetworkFiltersStack; route.go: GetDestinationCluster).
// Not modelled: DestinationRule tunnel (tunnelingconfig.Apply) and the mongo_proxy filter istiod puts
// before tcp_proxy on Mongo ports (PILOT_ENABLE_MONGO_FILTER, no generated schema).
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { TcpProxyJson } from '../../../gen/envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy_pb';
import type { Destination, DestinationRuleSpec, RouteDestination } from '../../../model/istio';
import type { IstioConfig, ServiceModel } from '../../../model/mesh';
import { outboundCluster } from '../../names';
import { normalizeDuration } from '../../../lib/duration';
import { configError, type BuildCtx } from './context';
import { tcpProxyFilter } from './filters';

/** route.go GetDestinationCluster: explicit port, else the service's only port, else the listener port. */
export function destinationCluster(dest: Destination, service: ServiceModel | undefined, listenerPort: number): string {
  const host = service?.externalName ?? dest.host;
  let port = listenerPort;
  if (dest.port?.number !== undefined) port = dest.port.number;
  else if (service && service.ports.length === 1) port = (service.ports[0] as { port: number }).port;
  return outboundCluster(port, host, dest.subset ?? '');
}

/** DestinationRule connection-pool settings and source-IP hashing applied to a tcp_proxy. */
function applyDestinationRule(tcp: TcpProxyJson, dr: DestinationRuleSpec | undefined, subset: string): void {
  if (!dr) return;
  const pool = dr.trafficPolicy?.connectionPool?.tcp;
  if (pool?.idleTimeout !== undefined) {
    const d = normalizeDuration(pool.idleTimeout);
    if (d !== undefined) tcp.idleTimeout = d;
  }
  if (pool?.maxConnectionDuration !== undefined) {
    const d = normalizeDuration(pool.maxConnectionDuration);
    if (d !== undefined) tcp.maxDownstreamConnectionDuration = d;
  }
  // maybeSetHashPolicy: top-level consistentHash.useSourceIp, overridden by the named subset's LB.
  let useSourceIp = dr.trafficPolicy?.loadBalancer?.consistentHash?.useSourceIp === true;
  const s = dr.subsets?.find((x) => x.name === subset);
  const lb = s?.trafficPolicy?.loadBalancer;
  if (lb) useSourceIp = lb.consistentHash ? lb.consistentHash.useSourceIp === true : false;
  if (useSourceIp) tcp.hashPolicy = [{ sourceIp: {} }];
}

/** …WithSingleDestination: stat prefix = cluster name. */
export function singleDestinationFilters(cluster: string, subset: string, dr: DestinationRuleSpec | undefined): FilterJson[] {
  const tcp: TcpProxyJson = { statPrefix: cluster, cluster };
  applyDestinationRule(tcp, dr, subset);
  return [tcpProxyFilter(tcp)];
}

/**
 * buildOutboundNetworkFilters for a tcp/tls route: one destination → cluster, several → weighted
 * clusters (weight 0 dropped, stat prefix `<vs>.<ns>`). undefined (with an error) when nothing is left.
 */
export function routeFilters(
  ctx: BuildCtx,
  routes: readonly RouteDestination[],
  listenerPort: number,
  vs: IstioConfig<'VirtualService'>,
  path: string,
): FilterJson[] | undefined {
  const bad = routes.findIndex((r) => typeof r?.destination?.host !== 'string' || r.destination.host === '');
  if (bad >= 0) {
    ctx.errors.push(configError(vs, `${path}[${bad}].destination.host`, 'route destination has no host', 'error'));
    return undefined;
  }
  const first = routes[0];
  if (!first) return undefined;
  routes.forEach((r, i) => {
    if (!ctx.view.service(r.destination.host)) {
      ctx.errors.push(
        configError(
          vs,
          `${path}[${i}].destination.host`,
          `destination host ${r.destination.host} is not a service visible to proxy ${ctx.view.proxy.id}`,
        ),
      );
    }
  });
  const service = ctx.view.service(first.destination.host);
  const dr = service ? ctx.view.destinationRule(service.hostname)?.spec : undefined;
  if (routes.length === 1) {
    const cluster = destinationCluster(first.destination, service, listenerPort);
    return singleDestinationFilters(cluster, first.destination.subset ?? '', dr);
  }
  const clusters = routes
    .filter((r) => (r.weight ?? 0) > 0)
    .map((r) => ({
      name: destinationCluster(r.destination, ctx.view.service(r.destination.host), listenerPort),
      weight: r.weight as number,
    }));
  if (clusters.length === 0) {
    ctx.errors.push(configError(vs, path, 'every destination has weight 0: no tcp_proxy can be built', 'error'));
    return undefined;
  }
  const tcp: TcpProxyJson = { statPrefix: `${vs.meta.name}.${vs.meta.namespace}`, weightedClusters: { clusters } };
  applyDestinationRule(tcp, dr, '');
  return [tcpProxyFilter(tcp)];
}
