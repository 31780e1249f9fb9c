// A ConfigDump (meshscope's or a real Envoy's) → the four tables the proxy page shows.
import { summarizeCluster, summarizeLoadAssignment, type ClusterEndpointsRow, type ClusterRow } from './clusters';
import { arr, obj, str } from './json';
import { summarizeListener, type ListenerRow } from './listeners';
import { summarizeRouteConfig, type RouteConfigRow } from './routes';

export type { ClusterEndpointsRow, ClusterRow, EndpointRow } from './clusters';
export type { FilterChainRow, ListenerRow } from './listeners';
export type { RouteConfigRow, RouteRow, VirtualHostRow, WeightedCluster } from './routes';

export interface ProxyTables {
  listeners: ListenerRow[];
  routes: RouteConfigRow[];
  clusters: ClusterRow[];
  endpoints: ClusterEndpointsRow[];
}

const section = (dump: unknown, kind: string) =>
  arr(obj(dump).configs)
    .map(obj)
    .filter((c) => str(c['@type'])?.endsWith(`envoy.admin.v3.${kind}`));

export function tablesFromConfigDump(dump: unknown): ProxyTables {
  const t: ProxyTables = { listeners: [], routes: [], clusters: [], endpoints: [] };
  for (const s of section(dump, 'ListenersConfigDump')) {
    for (const l of arr(s.static_listeners)) t.listeners.push(summarizeListener(obj(l).listener));
    for (const l of arr(s.dynamic_listeners)) {
      const d = obj(l);
      const state = obj(d.active_state ?? d.warming_state ?? d.draining_state);
      if (state.listener !== undefined) t.listeners.push(summarizeListener(state.listener));
    }
  }
  for (const s of section(dump, 'RoutesConfigDump'))
    for (const r of [...arr(s.static_route_configs), ...arr(s.dynamic_route_configs)])
      t.routes.push(summarizeRouteConfig(obj(r).route_config));
  for (const s of section(dump, 'ClustersConfigDump'))
    for (const c of [...arr(s.static_clusters), ...arr(s.dynamic_active_clusters), ...arr(s.dynamic_warming_clusters)])
      t.clusters.push(summarizeCluster(obj(c).cluster));
  for (const s of section(dump, 'EndpointsConfigDump'))
    for (const e of [...arr(s.static_endpoint_configs), ...arr(s.dynamic_endpoint_configs)])
      t.endpoints.push(summarizeLoadAssignment(obj(e).endpoint_config));
  return t;
}
