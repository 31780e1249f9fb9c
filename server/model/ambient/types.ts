// The ambient index's shapes: what istiod's ambient registry (pilot/pkg/serviceregistry/ambient) knows about
// waypoints and which Services and workloads are bound to one, with the reason whenever a binding does not hold.
// Pure data, built once per snapshot by ./index.

/** A Kubernetes label selector (the shape of gatewayapi/types LabelSelector; kept here so mesh.ts → ambient has no cycle). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** workloadapi.GatewayAddress: a waypoint's address as Workloads and Services carry it. */
export type GatewayAddressModel =
  | { hostname: { namespace: string; hostname: string }; hboneMtlsPort: number }
  | { address: { network: string; ip: string }; hboneMtlsPort: number };

/** waypoints.go WaypointSelector: which namespaces may bind to the waypoint (its HBONE listener's allowedRoutes). */
export interface WaypointAllowedRoutes {
  from: 'All' | 'Same' | 'Selector';
  selector?: LabelSelector;
}

/** waypoints.go Waypoint: a Gateway with an address in its status. */
export interface WaypointModel {
  /** `namespace/name` of the Gateway (Waypoint.ResourceName). */
  key: string;
  namespace: string;
  name: string;
  /** spec.gatewayClassName (`istio-waypoint` for a stock waypoint). */
  className: string;
  address: GatewayAddressModel;
  /** istio.io/waypoint-for on the Gateway, else on its GatewayClass, else `service` (constants.ServiceTraffic). */
  trafficType: string;
  /** Where trafficType came from. */
  trafficTypeFrom: 'gateway' | 'class' | 'default';
  allowedRoutes: WaypointAllowedRoutes;
  /** Sorted service accounts of its pods (gateway.networking.k8s.io/gateway-name = name). */
  serviceAccounts: string[];
  /** Proxy ids (`POD.NS`) of the waypoint pods running it. */
  proxies: string[];
}

/** A Gateway of class istio-waypoint that istiod does not (yet) count as a waypoint, and why. */
export interface PendingWaypoint {
  key: string;
  namespace: string;
  name: string;
  reason: string;
}

/** Why a Service or workload has no waypoint, or the status message istiod reports on its binding. */
export type BindingReason =
  /** Neither the object nor its namespace has istio.io/use-waypoint. */
  | 'NoUseWaypoint'
  /** istio.io/use-waypoint: none on the object (GetUseWaypoint isNone). */
  | 'OptedOut'
  /** The object is a waypoint / east-west gateway itself (fetchWaypointForService). */
  | 'IsWaypoint'
  /** status.go ReportWaypointIsNotReady: no such Gateway, or it has no status address yet. */
  | 'WaypointIsNotReady'
  /** status.go ReportWaypointAttachmentDenied: the waypoint's allowedRoutes do not admit the namespace. */
  | 'AttachmentDenied'
  /** status.go ReportWaypointUnsupportedTrafficType: waypoint-for does not accept this traffic. */
  | 'UnsupportedTrafficType';

export interface BindingSkip {
  reason: BindingReason;
  message: string;
  /** The waypoint named by the label, when one was. */
  waypoint?: string;
  /** Whether istiod writes this as an error on the object's status (model.WaypointBindingStatus.Error). */
  istiodError: boolean;
}

/** Where the istio.io/use-waypoint that decided the binding is. */
export type BindingSource = 'service' | 'workload' | 'namespace';

/** The waypoint a Service or workload is bound to, or why it has none. */
export interface WaypointBinding {
  /** Key (`ns/name`) of the waypoint; absent when there is none (then `skip` says why). */
  waypoint?: string;
  /** Which label decided it (when a label did). */
  source?: BindingSource;
  skip?: BindingSkip;
}

export interface ServiceBinding extends WaypointBinding {
  /** `namespace/hostname`. */
  key: string;
  namespace: string;
  hostname: string;
  /** services.go ingressUseWaypointFromLabels: the label on the Service or its namespace. */
  ingressLabelPresent: boolean;
  /** Ingress gateways send this Service's traffic through its waypoint. */
  ingressUseWaypoint: boolean;
}

export interface WorkloadBinding extends WaypointBinding {
  /** `namespace/pod`. */
  key: string;
  namespace: string;
  name: string;
  /** Redirected to ztunnel (annotation ambient.istio.io/redirection: enabled, or label networking.istio.io/tunnel: http). */
  ambient: boolean;
  /** `ns/name` of the waypoint this pod is an instance of (fetchWaypointForInstance). */
  instanceOf?: string;
}

/** Built once per snapshot (./index). Maps are in the snapshot's order. */
export interface AmbientIndex {
  /** `ns/name` → waypoint (Gateways with a status address). */
  waypoints: ReadonlyMap<string, WaypointModel>;
  /** Gateways of class istio-waypoint not counted (no status address). */
  pending: readonly PendingWaypoint[];
  /** `ns/hostname` → binding, for every Kubernetes Service and ServiceEntry host. */
  services: ReadonlyMap<string, ServiceBinding>;
  /** `ns/pod` → binding, for every pod. */
  workloads: ReadonlyMap<string, WorkloadBinding>;
  /** Waypoint proxy id (`POD.NS`) → `ns/hostname` of the Services bound to it, in creation order (ServicesForWaypoint). */
  servicesForProxy: ReadonlyMap<string, readonly string[]>;
  /** Waypoint proxy id → `ns/pod` of the workloads bound to it (WorkloadsForWaypoint). */
  workloadsForProxy: ReadonlyMap<string, readonly string[]>;
}
