// EDS for one proxy (xds/eds.go + xds/endpoints/endpoint_builder.go:BuildClusterLoadAssignment): one
// ClusterLoadAssignment per EDS cluster, named by the cluster's eds service_name. Endpoints are the service
// port's endpoints (podIP:targetPort), filtered by the subset's labels for subset clusters, grouped by
// locality. Endpoints whose address is not an IP (DNS ServiceEntry hosts) never go to EDS.
// Locality failover priorities are applied as ApplyLocalityLoadBalancer does (see localityFailover.ts).
// Under the ambient profile (../hbone/endpoints.ts): endpoints that support the tunnel become HBONE endpoints, and a
// router sends a Service bound to a waypoint with istio.io/ingress-use-waypoint to the waypoint instead
// (BuildClusterLoadAssignment's findServiceWaypoint branch, before subsets and locality failover).
import type { ClusterLoadAssignmentJson, ClusterJson } from '../../types';
import { parseClusterName } from '../../names';
import { isIP } from '../../../model/host';
import type { ProxyView } from '../../view/types';
import { mergeSubsetPolicy, portLevelPolicy } from '../clusters/trafficPolicy/select';
import { applyLocalityFailover, effectiveLocalitySetting, shouldApplyFailover } from './localityFailover';
import { buildLocalityLbEndpoints, filterBySubset } from './localityEndpoints';
import type { ServiceModel } from '../../../model/mesh';
import { byteCompareBy } from '../../../lib/compare';
import { applyHboneSend, serviceWaypointEndpoints, tunnelIps } from '../hbone/endpoints';

/**
 * hostname → the service a cluster of that host is built from: the first one in the proxy's namespace, else the
 * first one (one pass, instead of two scans of every service per cluster).
 */
export function serviceByHost(services: readonly ServiceModel[], proxyNamespace: string): Map<string, ServiceModel> {
  const first = new Map<string, ServiceModel>();
  const own = new Map<string, ServiceModel>();
  for (const s of services) {
    if (!first.has(s.hostname)) first.set(s.hostname, s);
    if (s.namespace === proxyNamespace && !own.has(s.hostname)) own.set(s.hostname, s);
  }
  for (const [h, s] of own) first.set(h, s);
  return first;
}

export function buildEndpoints(view: ProxyView, clusters: ClusterJson[]): ClusterLoadAssignmentJson[] {
  const pods = view.pods();
  const byHost = serviceByHost(view.destinationServices(), view.proxy.namespace);
  const out: ClusterLoadAssignmentJson[] = [];
  // supportTunnel's inputs, once per build (empty without the ambient profile)
  const tunnel = view.snapshot.ambient ? tunnelIps(view.snapshot) : new Set<string>();
  for (const c of clusters) {
    if (c.type !== 'EDS') continue;
    const clusterName = c.edsClusterConfig?.serviceName || c.name || '';
    const parsed = parseClusterName(clusterName);
    const svc = parsed ? byHost.get(parsed.hostname) : undefined;
    const port = svc && parsed ? svc.ports.find((p) => p.port === parsed.port) : undefined;
    if (parsed?.direction !== 'outbound' || !svc || !port) {
      out.push({ clusterName });
      continue;
    }
    const viaWaypoint = serviceWaypointEndpoints(view, svc, port.port, pods);
    if (viaWaypoint) {
      out.push(viaWaypoint.length > 0 ? { clusterName, endpoints: viaWaypoint } : { clusterName });
      continue;
    }
    let eps = view.endpoints(svc, port.port).filter((ep) => isIP(ep.address));
    const dr = view.destinationRule(svc.hostname);
    const subset = parsed.subset !== '' ? dr?.spec.subsets?.find((s) => s.name === parsed.subset) : undefined;
    if (parsed.subset !== '') eps = filterBySubset(eps, subset?.labels);
    const endpoints = applyHboneSend(view, buildLocalityLbEndpoints(eps, svc, pods, view.options.clusterId), tunnel);
    // getOutlierDetectionAndLoadBalancerSettings: port-level, then subset policy
    const policy = mergeSubsetPolicy(
      portLevelPolicy(dr?.spec.trafficPolicy, 'spec.trafficPolicy', port.port),
      portLevelPolicy(subset?.trafficPolicy, 'subset', port.port),
    );
    const setting = effectiveLocalitySetting(view.options.localityLbSetting, policy.loadBalancer?.value.localityLbSetting);
    if (shouldApplyFailover(setting, policy.outlierDetection !== undefined))
      applyLocalityFailover(endpoints, view.proxy.locality, setting?.failover);
    out.push(endpoints.length > 0 ? { clusterName, endpoints } : { clusterName });
  }
  return out.sort(byteCompareBy((c) => c.clusterName ?? ''));
}
