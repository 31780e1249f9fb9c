// The `waypoint` proxy kind: LDS / CDS / EDS of an ambient waypoint as istiod builds them (listener_waypoint.go,
// cluster_waypoint.go, waypoint.go). Route configs are inline in main_internal's chains, so RDS is empty.
// One entry point, buildWaypointResources(snapshot, proxy, options) → ResourceTable. Pure.
import { byteCompare, byteCompareBy } from '../../../lib/compare';
import { optionsOf, type LoadError, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../../../model/mesh';
import { collectRouteProvenance, createRouteSourceSink } from '../../routeSources';
import type { ResourceTable } from '../../types';
import { buildProxyView } from '../../view';
import { buildWaypointClusters } from './clusters';
import { buildWaypointEndpoints } from './endpoints';
import { buildWaypointListeners } from './listeners';
import { findWaypointResources } from './resources';

export { findWaypointResources } from './resources';
export { CONNECT_ORIGINATE, CONNECT_TERMINATE, ENCAP, MAIN_INTERNAL, inboundVipCluster, parseInboundVip } from './names';

const byName = byteCompareBy((r: { name?: string }) => r.name ?? '');

export function buildWaypointResources(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions = optionsOf(snapshot),
): ResourceTable {
  const view = buildProxyView(snapshot, proxy, options);
  const errors: LoadError[] = [...view.errors];
  const res = findWaypointResources(snapshot, proxy);
  if (!snapshot.ambient)
    errors.push({
      severity: 'warning',
      message: 'a waypoint proxy without the ambient profile: istiod serves it nothing it can use (run with --ambient)',
      object: `Pod ${proxy.namespace}/${proxy.name}`,
    });
  const routeSources = createRouteSourceSink();
  const listeners = buildWaypointListeners({ view, res, errors, routeSources }).sort(byName);
  const clusters = buildWaypointClusters(view, res, errors).sort(byName);
  const endpoints = buildWaypointEndpoints(view, res, clusters).sort((a, b) => byteCompare(a.clusterName ?? '', b.clusterName ?? ''));
  return { listeners, routes: [], clusters, endpoints, errors, provenance: collectRouteProvenance([], routeSources) };
}
