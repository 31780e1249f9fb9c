// ProxyView: what applies to one proxy (istiod's SidecarScope + the PushContext lookups it uses),
// computed once per (snapshot, proxy) by buildProxyView and read by every xDS builder.
import type { DestinationRuleSpec } from '../../model/istio';
import type { EndpointModel, IstioConfig, MeshSnapshot, ProxyModel, ServiceModel, ServicePort, TranslateOptions } from '../../model/mesh';
import type { MergedRouteOrigin } from './delegation';

/**
 * A VirtualService as bound to a proxy: names resolved and, for a root VirtualService, its delegates merged
 * in. `httpOrigins` (parallel to `spec.http`) says which rule each http route was as written: the root's
 * index and, for a merged delegate route, the delegate's. Absent when `spec.http` is as written (no merge).
 */
export type BoundVirtualService = IstioConfig<'VirtualService'> & { readonly httpOrigins?: readonly MergedRouteOrigin[] };

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

export interface ProxyView {
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
