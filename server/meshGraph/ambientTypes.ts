// The ambient part of the overview graph (MeshGraph.ambient), built by ./ambient. Types only.

/** One object whose L7 intent has no waypoint to run it. */
export interface SkippedL7 {
  /** `VirtualService`, `DestinationRule`, `HTTPRoute`, `GRPCRoute`, `AuthorizationPolicy`. */
  kind: string;
  /** `ns/name` of the object. */
  object: string;
  /** The graph node it is drawn on (a Service, or an enrolled pod for a selector policy). */
  target: string;
  /** The binding's reason (model/ambient BindingReason), or `HTTPAttributes` for a selector policy ztunnel enforces. */
  reason: string;
  message: string;
}

export interface AmbientWaypointSummary {
  /** `ns/name` of the Gateway. */
  key: string;
  /** The address ztunnel is sent (`ns/hostname` or `network/ip`). */
  address: string;
  trafficType: string;
  proxies: string[];
  /** `ns/hostname` of the Services it serves. */
  services: string[];
  /** `ns/pod` of the workloads it serves. */
  workloads: string[];
}

/** The ambient part of the overview (MeshGraph.ambient): present when the snapshot has the ambient index. */
export interface AmbientOverview {
  /** Namespaces with enrolled pods, or labelled istio.io/dataplane-mode=ambient. */
  namespaces: string[];
  /** Enrolled pods (`ns/pod`). */
  pods: string[];
  waypoints: AmbientWaypointSummary[];
  /** Waypoints istiod does not count yet (`ns/name` and why). */
  pending: { key: string; reason: string }[];
  skipped: SkippedL7[];
}
