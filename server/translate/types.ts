// What translateProxy returns: Envoy resources as typed proto3 JSON (the generated *Json types,
// camelCase field names), plus located translation problems. Pure data.
import type { ClusterJson } from '../gen/envoy/config/cluster/v3/cluster_pb';
import type { ClusterLoadAssignmentJson } from '../gen/envoy/config/endpoint/v3/endpoint_pb';
import type { ListenerJson } from '../gen/envoy/config/listener/v3/listener_pb';
import type { RouteConfigurationJson } from '../gen/envoy/config/route/v3/route_pb';
import type { LoadError } from '../model/mesh';

export type { ClusterJson, ClusterLoadAssignmentJson, ListenerJson, RouteConfigurationJson };

export interface ResourceTable {
  /** Sorted by name. */
  listeners: ListenerJson[];
  /** Sorted by name. Only route configs referenced by RDS (inline ones stay in their listener). */
  routes: RouteConfigurationJson[];
  /** Sorted by name. */
  clusters: ClusterJson[];
  /** One per EDS cluster, sorted by cluster_name. */
  endpoints: ClusterLoadAssignmentJson[];
  /** Problems met while translating (e.g. a VirtualService destination with no service). */
  errors: LoadError[];
}
