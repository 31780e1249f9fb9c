// HBONE endpoints (endpoint_builder.go buildEnvoyLbEndpoint when supportTunnel): the endpoint becomes the internal
// address of `connect_originate` with endpoint_id `IP:PORT`, and the logical destination rides in
// `envoy.filters.listener.original_dst.local`; outside a waypoint's inbound-vip clusters the endpoint also
// carries `envoy.transport_socket_match.tunnel = http`. EDS of a waypoint: its inbound-vip clusters get the
// bound Service's endpoints (subset-filtered, `tcp/`/`http/` stripped: populateSubsetInfo), HBONE for workloads that
// support the tunnel, plain addresses for the others (pilot/pkg/xds/waypoint_test.go TestWaypointEndpoints);
// its outbound clusters the usual ones. Pure.
import type { ClusterJson, ClusterLoadAssignmentJson } from '../../types';
import { buildLocalityLbEndpoints, filterBySubset } from '../endpoints/localityEndpoints';
import { buildEndpoints } from '../endpoints';
import { isIP } from '../../../model/host';
import type { ProxyView } from '../../view/types';
import { byteCompareBy } from '../../../lib/compare';
import { parseInboundVip } from './names';
import { toHbone, tunnelIps } from '../hbone/endpoints';
import type { WaypointResources } from './resources';

export function buildWaypointEndpoints(view: ProxyView, res: WaypointResources, clusters: ClusterJson[]): ClusterLoadAssignmentJson[] {
  const pods = view.pods();
  const tunnel = tunnelIps(view.snapshot);
  const vip: ClusterLoadAssignmentJson[] = [];
  const other: ClusterJson[] = [];
  for (const c of clusters) {
    if (c.type !== 'EDS') continue;
    const name = c.edsClusterConfig?.serviceName || c.name || '';
    const parsed = parseInboundVip(name);
    if (!parsed) {
      other.push(c);
      continue;
    }
    const svc = res.byHost.get(parsed.hostname);
    const port = svc?.ports.find((p) => p.port === parsed.port);
    if (!svc || !port) {
      vip.push({ clusterName: name });
      continue;
    }
    let eps = view.endpoints(svc, port.port).filter((ep) => isIP(ep.address));
    if (parsed.subset)
      eps = filterBySubset(eps, view.inboundDestinationRule(svc.hostname)?.spec.subsets?.find((s) => s.name === parsed.subset)?.labels);
    const groups = buildLocalityLbEndpoints(eps, svc, pods, view.options.clusterId).map((g) => ({
      ...g,
      lbEndpoints: (g.lbEndpoints ?? []).map((e) => (tunnel.has(e.endpoint?.address?.socketAddress?.address ?? '') ? toHbone(e, true) : e)),
    }));
    vip.push(groups.length ? { clusterName: name, endpoints: groups } : { clusterName: name });
  }
  return [...buildEndpoints(view, other), ...vip].sort(byteCompareBy((c) => c.clusterName ?? ''));
}
