// The route graph: listener → route configuration → virtual host → route → cluster(s) → endpoints, built
// from Envoy resources (ours or an uploaded config_dump). Plain data: the cytoscape renderer only draws it.
import type { SimSource } from '@/server/simulate/types';

export type NodeKind = 'listener' | 'routeConfig' | 'virtualHost' | 'route' | 'cluster' | 'endpoint' | 'more';

export interface Shadow {
  /** Index (in the same virtual host) of the earlier route that catches every request this one would. */
  by: number;
  reason: string;
}

export interface GraphNode {
  id: string;
  kind: NodeKind;
  /** Short text drawn on the node. */
  label: string;
  /** Longer text for the details panel and the node list (match, domains, address…). */
  detail?: string;
  /** The Envoy JSON of the resource (listener, route configuration, virtual host, route, cluster, lb endpoint). */
  json?: unknown;
  /** Istio config the resource came from (filter_metadata.istio.config), parsed… */
  source?: SimSource;
  /** …and as written (`/apis/networking.istio.io/v1/namespaces/NS/virtual-service/NAME`). */
  sourcePath?: string;
  /** Route nodes: position in their virtual host. */
  routeIndex?: number;
  /** Route and virtual host nodes: the route configuration they belong to (its node id). */
  routeConfigId?: string;
  /** Route nodes: the virtual host they belong to (its node id). */
  virtualHostId?: string;
  /** Cluster nodes: the subset of an Istio cluster name `dir|port|subset|host`, when set. */
  subset?: string;
  /** Routes that can never match. */
  shadowed?: Shadow;
  /** The resource is referenced but not in the config (e.g. RDS not received, cluster missing). */
  missing?: boolean;
}

export type EdgeKind = 'rds' | 'inline' | 'vhost' | 'route' | 'weighted' | 'tcp' | 'endpoint';

export interface GraphEdge {
  id: string;
  kind: EdgeKind;
  source: string;
  target: string;
  /** Share of the traffic in percent (weighted clusters; 100 for a single cluster). */
  percent?: number;
  /** Raw weight of a weighted cluster. */
  weight?: number;
  label?: string;
}

export interface RouteGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What to show: any combination narrows the graph to what these nodes reach and what reaches them. */
export interface GraphFilter {
  listener?: string;
  routeConfig?: string;
  /** Virtual host name (e.g. `reviews.default.svc.cluster.local:9080`). */
  virtualHost?: string;
  /** Listener port / route configuration port (`9080`, `http.8080`). */
  port?: number;
  /** Case-insensitive text searched in labels and details. */
  text?: string;
}
