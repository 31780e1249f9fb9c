// findWaypointResources (pilot/pkg/networking/core/waypoint.go): the Services and workloads a waypoint proxy
// serves, from the ambient index (ServicesForWaypoint / WorkloadsForWaypoint by the proxy's WaypointKey),
// the Services ordered by creation time (SortServicesByCreationTime). Pure.
import { byServiceCreation } from '../../../model/snapshot';
import type { MeshSnapshot, PodModel, ProxyModel, ServiceModel } from '../../../model/mesh';

export interface WaypointResources {
  /** Bound Services, oldest first. */
  services: ServiceModel[];
  /** hostname → bound Service. */
  byHost: ReadonlyMap<string, ServiceModel>;
  /** Bound workloads (pods), by creation time. */
  workloads: PodModel[];
}

export function findWaypointResources(snapshot: MeshSnapshot, proxy: ProxyModel): WaypointResources {
  const index = snapshot.ambient;
  const byHost = new Map<string, ServiceModel>();
  for (const key of index?.servicesForProxy.get(proxy.id) ?? []) {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    const host = key.slice(slash + 1);
    const svc = snapshot.servicesByHost.get(host)?.find((s) => s.namespace === ns);
    if (svc && !byHost.has(host)) byHost.set(host, svc);
  }
  const pods = new Map(snapshot.pods.map((p) => [`${p.namespace}/${p.name}`, p]));
  const workloads = (index?.workloadsForProxy.get(proxy.id) ?? []).flatMap((k) => {
    const p = pods.get(k);
    return p ? [p] : [];
  });
  return { services: [...byHost.values()].sort(byServiceCreation), byHost, workloads };
}
