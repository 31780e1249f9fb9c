// The tcp_proxy of a waypoint's TCP chain (listener_waypoint.go buildWaypointNetworkFilters, getWaypointTCPRoutes,
// getTCPRouteMatch): the first VirtualService tcp rule without match or with a match on this port (no source
// labels or namespaces: ztunnel cannot tell them) routes it; one destination → its cluster, several → weighted.
import type { TcpProxyJson } from '../../../gen/envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy_pb';
import type { ServiceModel } from '../../../model/mesh';
import type { ProxyView } from '../../view/types';
import { virtualServicesForWaypoint, waypointDestinationCluster } from './routes';

export function waypointTcpProxy(
  view: ProxyView,
  svc: ServiceModel,
  port: number,
  clusterName: string,
  bound: ReadonlyMap<string, ServiceModel>,
): TcpProxyJson {
  const out: TcpProxyJson = { statPrefix: clusterName, cluster: clusterName };
  const clusterOf = waypointDestinationCluster(bound);
  for (const vs of virtualServicesForWaypoint(view, svc)) {
    for (const rule of vs.spec.tcp ?? []) {
      const applies =
        !rule.match?.length ||
        rule.match.some((m) => (m.port === undefined || m.port === 0 || m.port === port) && !(m.gateways ?? []).some((g) => g !== 'mesh'));
      if (!applies) continue;
      const routes = rule.route ?? [];
      if (routes.length === 1) {
        const d = routes[0]!.destination;
        delete out.cluster;
        out.cluster = clusterOf(d, view.service(String(d.host)), port);
      } else if (routes.length > 1) {
        delete out.cluster;
        out.weightedClusters = {
          clusters: routes
            .filter((r) => (r.weight ?? 0) > 0)
            .map((r) => ({ name: clusterOf(r.destination, view.service(String(r.destination.host)), port), weight: r.weight ?? 0 })),
        };
      }
      return out;
    }
  }
  return out;
}
