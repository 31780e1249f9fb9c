// translateProxy: (snapshot, proxy, options) → Envoy resources. Pure: reads only its arguments.
// The proxy's kind (server/model/proxyKinds.ts) names its translator in TRANSLATORS. Envoy kinds read as the
// pipeline they are: view → the kind's front (sidecar: listeners, deciding the HTTP route ports, then route
// configs; router: gateway listeners and route configs, xds/gateway, istio-translation.md §6) → clusters
// (the kind's cluster set) → endpoints. Under the ambient profile both Envoy kinds also get the `connect_originate`
// listener (listener.go BuildListeners: features.EnableHBONESend && !waypoint; xds/hbone).
import { optionsOf, type LoadError, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../model/mesh';
import { proxyKind, type TranslatorName } from '../model/proxyKinds';
import { collectRouteProvenance, createRouteSourceSink, type RouteSourceSink } from './routeSources';
import type { ResourceTable } from './types';
import { buildProxyView, type ProxyView } from './view';
import { buildClusters } from './xds/clusters';
import { buildEndpoints } from './xds/endpoints';
import { buildGatewayResources } from './xds/gateway';
import { buildWaypointResources } from './xds/waypoint';
import { buildSidecarListeners } from './xds/listeners';
import { buildSidecarRouteConfigs, buildSniffedRouteConfig } from './xds/routes';
import { translateZtunnel } from './ztunnel';
import type { ZtunnelMemo } from './ztunnel/memo';
import { connectOriginateListener } from './xds/hbone/connectOriginate';
import { hboneSendEnabled } from './xds/hbone/profile';
import type { ListenerJson, RouteConfigurationJson } from './types';
import { byteCompare, byteCompareBy } from '../lib/compare';

export type { ResourceTable, RouteProvenance, RouteRuleSource } from './types';
export { routeSourceIndex, ruleLabel } from './routeSources';

const byName = byteCompareBy((r: { name?: string }) => r.name ?? '');

/** Builds one kind's whole table (server/model/proxyKinds.ts names which, by `translator`). */
/** Memos a caller (the runtime's cache) may lend a translator across snapshots; the output is the same without them. */
export interface TranslateMemos {
  ztunnel?: ZtunnelMemo;
}

export type Translator = (snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions, memos?: TranslateMemos) => ResourceTable;

/** What an Envoy kind's own front builds: its listeners and RDS route configs (clusters and endpoints are shared). */
type EnvoyFront = (
  view: ProxyView,
  routeSources: RouteSourceSink,
) => { listeners: ListenerJson[]; routes: RouteConfigurationJson[]; errors: LoadError[] };

/** Sidecars: sidecar listeners, then the route configs of their HTTP ports and sniffed services. */
const sidecarFront: EnvoyFront = (view, routeSources) => {
  const errors: LoadError[] = [];
  const lds = buildSidecarListeners(view);
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
  return { listeners: lds.listeners, routes, errors };
};

/** Routers: gateway listeners and route configs (xds/gateway, istio-translation.md §6). */
const gatewayFront: EnvoyFront = (view, routeSources) => buildGatewayResources(view, routeSources);

/** An Envoy kind's translator: view → its front (listeners, route configs) → clusters → endpoints, sorted. */
function envoyTranslator(front: EnvoyFront): Translator {
  return (snapshot, proxy, options) => {
    const view = buildProxyView(snapshot, proxy, options);
    const errors: LoadError[] = [...view.errors];
    const routeSources = createRouteSourceSink();
    const f = front(view, routeSources);
    errors.push(...f.errors);
    if (hboneSendEnabled(snapshot)) f.listeners.push(connectOriginateListener());
    const table: ResourceTable = { listeners: f.listeners, routes: f.routes, clusters: [], endpoints: [], errors, provenance: [] };
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
  };
}

/**
 * One translator per TranslatorName (istiod: ConfigGenerator per NodeType, plus the ztunnel generators).
 * A kind whose translator is not registered yet is answered with a located error, never a made-up table.
 */
export const TRANSLATORS: Readonly<Partial<Record<TranslatorName, Translator>>> = {
  sidecar: envoyTranslator(sidecarFront),
  gateway: envoyTranslator(gatewayFront),
  // Ambient waypoints: their own LDS/CDS/EDS (xds/waypoint, listener_waypoint.go / cluster_waypoint.go).
  waypoint: buildWaypointResources,
  ztunnel: (snapshot, proxy, options, memos) => translateZtunnel(snapshot, proxy, options, memos?.ztunnel),
};

export function translateProxy(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions = optionsOf(snapshot),
  memos?: TranslateMemos,
): ResourceTable {
  const spec = proxyKind(proxy);
  const translate = TRANSLATORS[spec.translator];
  if (translate) return translate(snapshot, proxy, options, memos);
  const error: LoadError = {
    severity: 'error',
    message: `meshscope has no ${spec.translator} translator yet: ${spec.kind} proxies get no configuration`,
    object: `Proxy ${proxy.id}`,
  };
  return { listeners: [], routes: [], clusters: [], endpoints: [], errors: [error], provenance: [] };
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
