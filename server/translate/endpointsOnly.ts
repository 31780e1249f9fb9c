// The ClusterLoadAssignments of some EDS clusters of one proxy, without the rest of the translation: what
// an endpoint-only change needs (istiod's incremental EDS push, pilot/pkg/xds/eds.go: only the changed
// services' CLAs are rebuilt; listeners, routes and clusters are not regenerated). Pure. Equal to the
// `endpoints` entries translateProxy builds for the same clusters (sharing.property.test.ts checks it).
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import type { ClusterJson, ClusterLoadAssignmentJson } from './types';
import { buildProxyView } from './view';
import { buildEndpoints } from './xds/endpoints';

/** `clusterNames`: EDS service names (the CLA names translateProxy gave them). */
export function translateEndpoints(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  clusterNames: readonly string[],
): ClusterLoadAssignmentJson[] {
  const view = buildProxyView(snapshot, proxy, options);
  // buildEndpoints reads a cluster's type, name and EDS service name only.
  const stubs = clusterNames.map((name) => ({ name, type: 'EDS', edsClusterConfig: { serviceName: name } }) as ClusterJson);
  return buildEndpoints(view, stubs);
}
