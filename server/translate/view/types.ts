// ProxyView: what applies to one proxy (istiod's SidecarScope + the PushContext lookups it uses),
// computed once per (snapshot, proxy) by buildProxyView and read by every xDS builder.
import type { DestinationRuleSpec } from '../../model/istio';
import type {
  EndpointModel,
  IstioConfig,
  LoadError,
  MeshSnapshot,
  PodModel,
  ProxyModel,
  ServiceModel,
  ServicePort,
  TranslateOptions,
} from '../../model/mesh';
import type { BoundVirtualService } from './boundVirtualService';
import type { GatewayView } from './gateway/types';

export type { BoundVirtualService } from './boundVirtualService';
export type { GatewayView, GwServer, HttpBinding, MergedGateway, MergedServers, ServerPort, TlsServerInfo } from './gateway/types';
export type { MergedRouteOrigin } from './delegation';

/** A (service, port) whose selector selects the proxy's pod: the source of inbound config. */
export interface ServiceTarget {
  service: ServiceModel;
  port: ServicePort;
  /** The pod port the service port maps to (resolved targetPort). */
  targetPort: number;
}

/** The DestinationRule that applies to a host for this proxy, merged as istiod merges same-host rules. */
export interface EffectiveDestinationRule {
  spec: DestinationRuleSpec;
  /** The rules merged into spec, oldest first (provenance). */
  from: readonly IstioConfig<'DestinationRule'>[];
}

/** The scope of one proxy (or of one of its Sidecar egress listeners): what buildProxyView selects. */
export interface ProxyViewBase {
  snapshot: MeshSnapshot;
  proxy: ProxyModel;
  options: TranslateOptions;
  /** The Sidecar resource in force, if any. */
  sidecar?: IstioConfig<'Sidecar'>;
  outboundTrafficPolicy: 'ALLOW_ANY' | 'REGISTRY_ONLY';
  /** Services this proxy imports (exportTo + Sidecar egress), in snapshot order. */
  services: readonly ServiceModel[];
  /**
   * VirtualServices bound to this proxy (gateway `mesh` for sidecars), in import order: private,
   * exported-to-namespace, public; each by creation. Short names in hosts and destinations are
   * already resolved to FQDNs relative to the VirtualService's namespace.
   */
  virtualServices: readonly BoundVirtualService[];
  serviceTargets: readonly ServiceTarget[];
  /** The DestinationRule for a hostname as seen from this proxy (client ns, service ns, root ns). */
  destinationRule(hostname: string): EffectiveDestinationRule | undefined;
  /** Service lookup by hostname among visible services (proxy namespace preferred). */
  service(hostname: string, preferNamespace?: string): ServiceModel | undefined;
  /** Endpoints of a service port (all, healthy or not). */
  endpoints(service: ServiceModel, port: number): readonly EndpointModel[];
}

/** One Sidecar egress listener with the view restricted to its services and VirtualServices. */
export interface EgressListener {
  /** Index in the Sidecar's `spec.egress` (-1 for the implicit catch-all). */
  index: number;
  /** The listener port of an entry with `port` (number, name, protocol as declared); undefined = catch-all. */
  port?: ServicePort;
  bind?: string;
  view: ProxyView;
}

/**
 * ProxyViewBase plus what the xDS builders derive from it, computed here so that server/translate/xds/*
 * imports only these types: the Sidecar egress listeners, the scope of each RDS port, the services that
 * get clusters, and, for routers, the merged Gateways with their VirtualService bindings. Derived answers
 * are computed on first use and kept (a view lives for one translation).
 */
export interface ProxyView extends ProxyViewBase {
  /** Problems found while selecting (gateway servers skipped while merging, …), located. */
  errors: readonly LoadError[];
  /** Routers: the Gateways selecting the proxy, merged, and their VirtualService bindings. */
  gateway?: GatewayView;
  /** The egress listeners (a single catch-all with this view when the Sidecar has no port-specific egress). */
  egressListeners(): readonly EgressListener[];
  /** GetEgressListenerForRDS: the view route config `<port>` is built from. */
  routeView(port: number): ProxyView;
  /** CDS: the egress listeners' services merged (collectImportedServices) plus VirtualService destinations. */
  clusterServices(): readonly ServiceModel[];
  /** The view's services plus the visible services VirtualServices route to (EDS, proxyless gRPC CDS). */
  destinationServices(): readonly ServiceModel[];
  /** The DestinationRule for inbound clusters (workloadSelector rules ignored: sidecar.go DestinationRule). */
  inboundDestinationRule(hostname: string): EffectiveDestinationRule | undefined;
  /** The snapshot's pods by `namespace/name` (built on first use; read by CDS and EDS). */
  pods(): ReadonlyMap<string, PodModel>;
}
