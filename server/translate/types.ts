// What translateProxy returns: Envoy resources as typed proto3 JSON (the generated *Json types,
// camelCase field names), plus located translation problems. Pure data.
import type { ClusterJson } from '../gen/envoy/config/cluster/v3/cluster_pb';
import type { ClusterLoadAssignmentJson } from '../gen/envoy/config/endpoint/v3/endpoint_pb';
import type { ListenerJson } from '../gen/envoy/config/listener/v3/listener_pb';
import type { RouteConfigurationJson } from '../gen/envoy/config/route/v3/route_pb';
import type { LoadError } from '../model/mesh';

export type { ClusterJson, ClusterLoadAssignmentJson, ListenerJson, RouteConfigurationJson };

/** proto3 JSON of istio.workload.Address (meshscope's proto/istio/workload/workload.proto). */
export type AddressJson =
  | { workload: { uid: string } & Record<string, unknown> }
  | { service: { namespace: string; hostname: string } & Record<string, unknown> };
/** proto3 JSON of istio.security.Authorization (meshscope's proto/istio/security/authorization.proto). */
export type AuthorizationJson = { name: string; namespace: string } & Record<string, unknown>;

export interface ResourceTable {
  /** Sorted by name. */
  listeners: ListenerJson[];
  /** Sorted by name. Only route configs referenced by RDS (inline ones stay in their listener). */
  routes: RouteConfigurationJson[];
  /** Sorted by name. */
  clusters: ClusterJson[];
  /** One per EDS cluster, sorted by cluster_name. */
  endpoints: ClusterLoadAssignmentJson[];
  /** ztunnel's WDS (istio.workload.Address: one Workload or Service each), in istiod's order. Envoy kinds: none. */
  addresses?: AddressJson[];
  /** ztunnel's authorization policies (istio.security.Authorization), in istiod's order. Envoy kinds: none. */
  authorizations?: AuthorizationJson[];
  /** Problems met while translating (e.g. a VirtualService destination with no service). */
  errors: LoadError[];
  /**
   * Which VirtualService rule produced each route of `routes`, recorded while translating (never re-derived):
   * one entry per route that came from a VirtualService http rule, sorted by (route config, virtual host,
   * index). Default, catch-all and inbound routes have none. Not part of what Envoy gets.
   */
  provenance: RouteProvenance[];
}

/**
 * The VirtualService rule behind a route. Structurally a sandbox `RuleSource` (server/sandbox/types.ts):
 * `rule` is the root VirtualService's `http[i]`; for a route merged from a delegate, `delegate` names the
 * delegate VirtualService and its `http[j]` (Istio model/virtualservice.go mergeVirtualServices).
 */
export interface RouteRuleSource {
  kind: 'VirtualService';
  namespace: string;
  name: string;
  /** `http[i]`: the index as written in the (root) VirtualService. */
  rule: string;
  /** Index of the match condition within that rule (`http[i].match[j]`), when the rule has matches and no delegate. */
  match?: number;
  delegate?: { namespace: string; name: string; rule: string };
}

/** One route's provenance, keyed by where the route sits in the RDS output. */
export interface RouteProvenance {
  /** RouteConfiguration name (`9080`, `http.8080`, `reviews.default.svc.cluster.local:9080`, …). */
  routeConfig: string;
  /** Virtual host name. */
  virtualHost: string;
  /** Position of the route in the virtual host. */
  index: number;
  /** The Envoy route name, when it has one. */
  route?: string;
  source: RouteRuleSource;
}
