// The service model meshscope translates from: istiod's model.Service / IstioEndpoint / Proxy,
// in plain immutable data. Built by ./snapshot from parsed inputs; read by server/translate.
import type { ExtensionProvider } from './extensionProviders';
import type { HTTPRetry, IstioKind, IstioSpecs } from './istio';
import type { LocalityLoadBalancerSetting, MeshConfig, MeshConfigOrigin } from './meshConfig';
import type { InputSource, Problem } from './problem';
import type { GatewayApiModel } from './gatewayapi/status';
import type { AmbientIndex } from './ambient/types';
import type { ProxyKind } from './proxyKinds';
import type { SnapshotMemo } from './snapshotMemo';

/** Where an object came from, so every error and every generated resource can point back at it. */
export interface Origin {
  source: InputSource;
  /** File path (file source) or API path (kube source). */
  file?: string;
  /** 0-based index of the YAML document inside the file. */
  doc?: number;
}

export interface ObjectMeta {
  name: string;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  /** RFC 3339; objects from files without one get a deterministic synthetic time in input order. */
  creationTimestamp: string;
  resourceVersion?: string;
  uid?: string;
}

/** An Istio networking object (VirtualService, DestinationRule, …) with its spec typed per kind. */
export interface IstioConfig<K extends IstioKind = IstioKind> {
  kind: K;
  apiVersion: string;
  meta: ObjectMeta;
  spec: IstioSpecs[K];
  origin: Origin;
  /**
   * Set on configs istiod generates from other inputs (e.g. a Kubernetes Ingress): the object it came from.
   * Translated like any other; `istioctl analyze` never sees them, so neither do the analyzers.
   */
  generatedBy?: { kind: string; namespace: string; name: string };
  /** status.conditions as type → status ("True"/"False"/…), when the object carries any (WorkloadEntry health). */
  conditions?: Readonly<Record<string, string>>;
}

/** The effective mesh config of a snapshot: merged config, where it came from, and the options derived from it. */
export interface MeshConfigState {
  config: MeshConfig;
  origin: MeshConfigOrigin;
  options: TranslateOptions;
}

/** A located problem with the inputs or their translation: the one Problem type (./problem). */
export type LoadError = Problem;

/** Istio's protocol names (pkg/config/protocol). `Unsupported` means auto-detected (sniffed). */
export type Protocol =
  | 'HTTP'
  | 'HTTP2'
  | 'HTTPS'
  | 'GRPC'
  | 'GRPC-Web'
  | 'HTTP_PROXY'
  | 'TCP'
  | 'TLS'
  | 'Mongo'
  | 'Redis'
  | 'MySQL'
  | 'UDP'
  | 'Unsupported';

export interface ServicePort {
  name: string;
  port: number;
  protocol: Protocol;
  /** Kubernetes targetPort (number or a container port name), or the ServiceEntry targetPort. */
  targetPort?: number | string;
}

/** istiod's model.Resolution. */
export type Resolution = 'ClientSideLB' | 'DNS' | 'DNSRoundRobin' | 'Passthrough' | 'Alias';

/** Reference to the object a model entity was built from (provenance). */
export interface ObjectRef {
  kind: string;
  group: string;
  version: string;
  namespace: string;
  name: string;
}

export interface ServiceModel {
  /** FQDN, e.g. reviews.default.svc.cluster.local, or a ServiceEntry host. */
  hostname: string;
  namespace: string;
  /** Kubernetes service name, or the ServiceEntry name. */
  name: string;
  registry: 'Kubernetes' | 'External';
  /** VIP: clusterIP, the ServiceEntry address, or 0.0.0.0 when none. */
  address: string;
  /** Every address (ServiceEntry addresses may hold several IPs or CIDRs). */
  addresses: readonly string[];
  ports: readonly ServicePort[];
  resolution: Resolution;
  meshExternal: boolean;
  /** exportTo as written ("*", ".", "~", namespace names); empty = mesh default (public). */
  exportTo: readonly string[];
  labels: Readonly<Record<string, string>>;
  /** Kubernetes Service selector / ServiceEntry workloadSelector. */
  selector?: Readonly<Record<string, string>>;
  /** ExternalName services: the target. */
  externalName?: string;
  creationTimestamp: string;
  ref: ObjectRef;
  /** Where a Kubernetes Service was read from (findings about it point there). */
  origin?: Origin;
}

export interface Locality {
  region: string;
  zone: string;
  subzone: string;
}

export interface EndpointModel {
  address: string;
  /** Port the workload listens on (resolved targetPort). */
  port: number;
  /** Service port number this endpoint serves. */
  servicePort: number;
  labels: Readonly<Record<string, string>>;
  namespace: string;
  podName?: string;
  serviceAccount?: string;
  locality: Locality;
  /** LB weight; 1 unless a WorkloadEntry says otherwise. */
  weight: number;
  healthy: boolean;
  /** WorkloadEntry endpoints: the entry's network, its workload name (the entry's name) and TLS mode (workloads.ts). */
  network?: string;
  workloadName?: string;
  tlsMode?: string;
}

export interface PodModel {
  name: string;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  ip: string;
  ready: boolean;
  serviceAccount: string;
  /** containerPort name → number, for named targetPorts. */
  namedPorts: Readonly<Record<string, number>>;
  /** Container ports declared on the pod. */
  containerPorts: readonly number[];
  /** Whether istiod would treat this pod as having an Envoy (injected sidecar, gateway or ambient waypoint). */
  proxy: 'sidecar' | 'router' | 'waypoint' | 'none';
  nodeName?: string;
  /** The image of the pod's `istio-proxy` container (its tag is the proxy's Istio version when no Envoy told it). */
  proxyImage?: string;
  locality: Locality;
  /** The workload controller the pod came from, when expanded from a Deployment/ReplicaSet/StatefulSet. */
  owner?: { kind: string; name: string };
  creationTimestamp: string;
  origin: Origin;
}

/** A proxy that config is generated for (istiod's model.Proxy, as far as translation needs it). */
export interface ProxyModel {
  /** `POD.NAMESPACE` */
  id: string;
  /** Its kind (./proxyKinds.ts: translator, served types, node-id type). */
  type: ProxyKind;
  name: string;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  ips: readonly string[];
  serviceAccount?: string;
  locality: Locality;
  /** Proxyless gRPC clients and Envoys connecting with metadata may add more here. */
  metadata?: Readonly<Record<string, string>>;
}

export interface NamespaceModel {
  name: string;
  labels: Readonly<Record<string, string>>;
  /** Declared by an input object (false for namespaces only implied by objects in them). */
  declared: boolean;
}

/**
 * An immutable, indexed picture of the mesh at one moment (istiod's PushContext + registry).
 * Lists are in Istio's config order: creationTimestamp, then name, then namespace.
 */
export interface MeshSnapshot {
  /** Monotonic per store; changes with every content change. */
  version: number;
  namespaces: ReadonlyMap<string, NamespaceModel>;
  services: readonly ServiceModel[];
  /** hostname → services with that hostname (one per namespace for ServiceEntries). */
  servicesByHost: ReadonlyMap<string, readonly ServiceModel[]>;
  /** `${namespace}/${hostname}` → service port number → endpoints. */
  endpoints: ReadonlyMap<string, ReadonlyMap<number, readonly EndpointModel[]>>;
  pods: readonly PodModel[];
  proxies: readonly ProxyModel[];
  proxiesById: ReadonlyMap<string, ProxyModel>;
  virtualServices: readonly IstioConfig<'VirtualService'>[];
  destinationRules: readonly IstioConfig<'DestinationRule'>[];
  gateways: readonly IstioConfig<'Gateway'>[];
  serviceEntries: readonly IstioConfig<'ServiceEntry'>[];
  sidecars: readonly IstioConfig<'Sidecar'>[];
  /** Secrets by metadata (never their data); absent or `known: false` when no Secret source exists. */
  secrets?: SecretIndex;
  workloadEntries: readonly IstioConfig<'WorkloadEntry'>[];
  /** security.istio.io AuthorizationPolicies, in config order. */
  authorizationPolicies: readonly IstioConfig<'AuthorizationPolicy'>[];
  /** security.istio.io PeerAuthentications, in config order (creation, name, namespace). */
  peerAuthentications: readonly IstioConfig<'PeerAuthentication'>[];
  /** networking.istio.io/v1alpha3 EnvoyFilters, in config order (server/envoyfilter applies them). */
  envoyFilters?: readonly IstioConfig<'EnvoyFilter'>[];
  /**
   * Istio objects that fail Istio's validation but could be read (parse/rejected): never translated (istiod's
   * webhook would reject them), still analyzed (as `istioctl analyze` does on files). Config order.
   */
  rejectedConfigs?: readonly IstioConfig[];
  /** Gateway API objects as istiod reads them: their status and the proxies serving them (./gatewayapi). Their converted
   *  Gateways/VirtualServices are already in `gateways` / `virtualServices`. */
  gatewayApi?: GatewayApiModel;
  /** The ambient index (./ambient): present when istiod runs with the ambient profile. */
  ambient?: AmbientIndex;
  /** Every input problem, located. */
  errors: readonly LoadError[];
  /** The effective MeshConfig (ConfigMap istio-system/istio, `--mesh-config`, or istiod's defaults) and its options. */
  mesh: MeshConfigState;
  /**
   * Lookups derived from this snapshot, built on first use (translate/view/snapshotIndex.ts: pods by name, service
   * targets per proxy, DestinationRules per namespace). Not content; absent → the translator scans linearly.
   * Give every snapshot a fresh one (`new SnapshotMemo()`); a copy that replaces arrays may keep it (slots check).
   */
  memo?: SnapshotMemo;
}

/** A Secret as meshscope knows it: metadata and type, never its data (./secrets). */
export interface SecretModel {
  name: string;
  namespace: string;
  /** `kubernetes.io/tls`, `Opaque`, …; '' when only metadata is known (a metadata-only watch carries no type). */
  type: string;
  origin: Origin;
}

/**
 * The Secrets meshscope knows of. `known` is false when no Secret source exists (files without any Secret,
 * a cluster without the opt-in Secret RBAC): then nothing can be said about a credential being missing.
 */
export interface SecretIndex {
  known: boolean;
  /** `namespace/name` → Secret. */
  byKey: ReadonlyMap<string, SecretModel>;
}

/** The TranslateOptions a snapshot's mesh config gives: what every caller translates with unless told otherwise. */
export const optionsOf = (snapshot: Pick<MeshSnapshot, 'mesh'>): TranslateOptions => snapshot.mesh?.options ?? DEFAULT_OPTIONS;

/** Key of `MeshSnapshot.endpoints`. */
export const endpointKey = (svc: Pick<ServiceModel, 'namespace' | 'hostname'>): string => `${svc.namespace}/${svc.hostname}`;

/** Mesh-wide settings (MeshConfig) and translation feature switches. One typed argument, never env. */
export interface TranslateOptions {
  domainSuffix: string;
  rootNamespace: string;
  outboundTrafficPolicy: 'ALLOW_ANY' | 'REGISTRY_ONLY';
  /** Cluster connect timeout (MeshConfig.connectTimeout). */
  connectTimeout: string;
  /** Cluster id used in metadata and node ids. */
  clusterId: string;
  /** MeshConfig.inboundTrafficPolicy.mode: LOCALHOST sends inbound traffic to 127.0.0.1 (STATIC inbound clusters). */
  inboundTrafficPolicy: 'PASSTHROUGH' | 'LOCALHOST';
  /** MeshConfig.protocolDetectionTimeout (canonical duration; 0s = no timeout). */
  protocolDetectionTimeout: string;
  /** MeshConfig.enableAutoMtls (default true). */
  enableAutoMtls: boolean;
  /** MeshConfig.trustDomain. */
  trustDomain: string;
  /** exportTo of a Service/ServiceEntry, VirtualService, DestinationRule that sets none (MeshConfig default*ExportTo). */
  defaultServiceExportTo: readonly string[];
  defaultVirtualServiceExportTo: readonly string[];
  defaultDestinationRuleExportTo: readonly string[];
  /** MeshConfig.localityLbSetting (default `{enabled: true}`); a DestinationRule's setting overrides it. */
  localityLbSetting?: LocalityLoadBalancerSetting;
  /** MeshConfig.defaultHttpRetryPolicy; undefined = Istio's built-in default (2 attempts). */
  defaultHttpRetryPolicy?: HTTPRetry;
  /** MeshConfig.extensionProviders that parsed cleanly (CUSTOM AuthorizationPolicies name them). */
  extensionProviders?: readonly ExtensionProvider[];
}

export const DEFAULT_OPTIONS: TranslateOptions = Object.freeze({
  domainSuffix: 'cluster.local',
  rootNamespace: 'istio-system',
  outboundTrafficPolicy: 'ALLOW_ANY',
  connectTimeout: '10s',
  clusterId: 'Kubernetes',
  inboundTrafficPolicy: 'PASSTHROUGH',
  protocolDetectionTimeout: '0s',
  enableAutoMtls: true,
  trustDomain: 'cluster.local',
  defaultServiceExportTo: Object.freeze(['*']),
  defaultVirtualServiceExportTo: Object.freeze(['*']),
  defaultDestinationRuleExportTo: Object.freeze(['*']),
  localityLbSetting: Object.freeze({ enabled: true }),
} as const);
