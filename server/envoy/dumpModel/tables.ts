// A ConfigDump (meshscope's or a real Envoy's) → the four summary tables of `GET /api/proxies/POD.NS`.
// Browser-safe; the proxy page's flat rows (rows.ts) are built on the same summaries.
import { readConfigDump } from '../dumpReader';
import { summarizeCluster, summarizeLoadAssignment, type ClusterEndpointsRow, type ClusterRow } from './clusters';
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

/** The summaries of every resource in the dump (read by ../dumpReader.ts, like the UI's rows). */
export function tablesFromConfigDump(dump: unknown): ProxyTables {
  const { config } = readConfigDump(dump);
  return {
    listeners: config.listeners.map(summarizeListener),
    routes: config.routes.map(summarizeRouteConfig),
    clusters: config.clusters.map(summarizeCluster),
    endpoints: config.endpoints.map(summarizeLoadAssignment),
  };
}
