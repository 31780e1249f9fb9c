// translateProxy: (snapshot, proxy, options) → Envoy resources. Pure: reads only its arguments.
// Reads as the pipeline it is: view → listeners (decide the HTTP route ports) → route configs →
// clusters → endpoints. Routers get gateway listeners and route configs (xds/gateway, istio-translation.md §6)
// and the gateway cluster set (§6, last paragraph).
import { optionsOf, type LoadError, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../model/mesh';
import { collectRouteProvenance, createRouteSourceSink } from './routeSources';
import type { ResourceTable } from './types';
import { buildProxyView } from './view';
import { buildClusters } from './xds/clusters';
import { buildEndpoints } from './xds/endpoints';
import { buildGatewayResources } from './xds/gateway';
import { buildWaypointResources } from './xds/waypoint';
import { buildSidecarListeners } from './xds/listeners';
import { buildSidecarRouteConfigs, buildSniffedRouteConfig } from './xds/routes';
import type { RouteConfigurationJson } from './types';
import { byteCompare, byteCompareBy } from '../lib/compare';

export type { ResourceTable, RouteProvenance, RouteRuleSource } from './types';
export { routeSourceIndex, ruleLabel } from './routeSources';

const byName = byteCompareBy((r: { name?: string }) => r.name ?? '');

export function translateProxy(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions = optionsOf(snapshot)): ResourceTable {
  // The `waypoint` proxy kind (xds/waypoint): its own LDS/CDS/EDS; one line until the generator registry lands.
  if (proxy.type === 'waypoint') return buildWaypointResources(snapshot, proxy, options);
  const view = buildProxyView(snapshot, proxy, options);
  const errors: LoadError[] = [...view.errors];
  const table: ResourceTable = { listeners: [], routes: [], clusters: [], endpoints: [], errors, provenance: [] };
  const routeSources = createRouteSourceSink();

  if (proxy.type === 'sidecar') {
    const lds = buildSidecarListeners(view);
    table.listeners = lds.listeners;
    errors.push(...lds.errors);
    const rds = buildSidecarRouteConfigs(view, lds.httpRoutePorts, routeSources);
    const routes: RouteConfigurationJson[] = [...rds.routes];
    errors.push(...rds.errors);
    for (const s of lds.sniffedRoutes) {
      const service = view.service(s.hostname);
      if (!service) continue;
      const sniffed = buildSniffedRouteConfig(view, service, s.port, routeSources);
      routes.push(sniffed.route);
      errors.push(...sniffed.errors);
    }
    table.routes = routes;
  } else {
    const gw = buildGatewayResources(view, routeSources);
    table.listeners = gw.listeners;
    table.routes = gw.routes;
    errors.push(...gw.errors);
  }

  const cds = buildClusters(view);
  table.clusters = cds.clusters;
  errors.push(...cds.errors);
  table.endpoints = buildEndpoints(view, cds.clusters);

  table.listeners.sort(byName);
  table.routes.sort(byName);
  table.clusters.sort(byName);
  table.endpoints.sort((a, b) => byteCompare(a.clusterName ?? '', b.clusterName ?? ''));
  table.errors = dedupeErrors(errors);
  table.provenance = collectRouteProvenance(table.routes, routeSources);
  return table;
}

/** The same problem found by two builders (e.g. a bad destination seen by LDS and RDS) is reported once. */
function dedupeErrors(errors: LoadError[]): LoadError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.severity}|${e.file}|${e.doc}|${e.object}|${e.path}|${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
