// Typed specs of Istio's networking kinds (networking.istio.io v1 / v1beta1 / v1alpha3), in the
// field names users write in YAML. Only the shapes; validation lives in ./schema/.
// Reference: istio/api networking/v1alpha3/*.proto (the API is the same across the three versions).
import type { AuthorizationPolicySpec } from './authz';

export type StringMatch = { exact?: string; prefix?: string; regex?: string };

export interface Destination {
  host: string;
  subset?: string;
  port?: { number?: number };
}

export interface Headers {
  request?: HeaderOperations;
  response?: HeaderOperations;
}
export interface HeaderOperations {
  set?: Record<string, string>;
  add?: Record<string, string>;
  remove?: string[];
}

export interface Percent {
  value?: number;
}

export interface HTTPMatchRequest {
  name?: string;
  uri?: StringMatch;
  scheme?: StringMatch;
  method?: StringMatch;
  authority?: StringMatch;
  headers?: Record<string, StringMatch>;
  port?: number;
  sourceLabels?: Record<string, string>;
  gateways?: string[];
  queryParams?: Record<string, StringMatch>;
  ignoreUriCase?: boolean;
  withoutHeaders?: Record<string, StringMatch>;
  sourceNamespace?: string;
  statPrefix?: string;
}

export interface HTTPRouteDestination {
  destination: Destination;
  weight?: number;
  headers?: Headers;
}

export interface HTTPRedirect {
  uri?: string;
  authority?: string;
  port?: number;
  derivePort?: 'FROM_PROTOCOL_DEFAULT' | 'FROM_REQUEST_PORT';
  scheme?: string;
  redirectCode?: number;
}

export interface HTTPDirectResponse {
  status: number;
  body?: { string?: string; bytes?: string };
}

export interface HTTPRewrite {
  uri?: string;
  authority?: string;
  uriRegexRewrite?: { match?: string; rewrite?: string };
}

export interface HTTPRetry {
  attempts?: number;
  perTryTimeout?: string;
  retryOn?: string;
  retryRemoteLocalities?: boolean;
  retryIgnorePreviousHosts?: boolean;
  backoff?: string;
}

export interface HTTPFaultInjection {
  delay?: { fixedDelay?: string; exponentialDelay?: string; percentage?: Percent; percent?: number };
  abort?: { httpStatus?: number; grpcStatus?: string; http2Error?: string; percentage?: Percent };
}

export interface HTTPMirrorPolicy {
  destination: Destination;
  percentage?: Percent;
}

export interface CorsPolicy {
  allowOrigins?: StringMatch[];
  allowOrigin?: string[];
  allowMethods?: string[];
  allowHeaders?: string[];
  exposeHeaders?: string[];
  maxAge?: string;
  allowCredentials?: boolean;
  unmatchedPreflights?: 'UNSPECIFIED' | 'FORWARD' | 'IGNORE';
}

export interface Delegate {
  name?: string;
  namespace?: string;
}

export interface HTTPRoute {
  name?: string;
  match?: HTTPMatchRequest[];
  route?: HTTPRouteDestination[];
  redirect?: HTTPRedirect;
  directResponse?: HTTPDirectResponse;
  delegate?: Delegate;
  rewrite?: HTTPRewrite;
  timeout?: string;
  retries?: HTTPRetry;
  fault?: HTTPFaultInjection;
  mirror?: Destination;
  mirrorPercent?: number;
  mirrorPercentage?: Percent;
  mirrors?: HTTPMirrorPolicy[];
  corsPolicy?: CorsPolicy;
  headers?: Headers;
}

export interface L4MatchAttributes {
  destinationSubnets?: string[];
  port?: number;
  sourceLabels?: Record<string, string>;
  gateways?: string[];
  sourceNamespace?: string;
}
export interface TLSMatchAttributes extends L4MatchAttributes {
  sniHosts: string[];
}
export interface RouteDestination {
  destination: Destination;
  weight?: number;
}
export interface TCPRoute {
  match?: L4MatchAttributes[];
  route?: RouteDestination[];
}
export interface TLSRoute {
  match: TLSMatchAttributes[];
  route?: RouteDestination[];
}

export interface VirtualServiceSpec {
  hosts?: string[];
  gateways?: string[];
  http?: HTTPRoute[];
  tls?: TLSRoute[];
  tcp?: TCPRoute[];
  exportTo?: string[];
}

// ---------------------------------------------------------------- DestinationRule

export interface LoadBalancerSettings {
  simple?: 'UNSPECIFIED' | 'LEAST_CONN' | 'RANDOM' | 'PASSTHROUGH' | 'ROUND_ROBIN' | 'LEAST_REQUEST';
  consistentHash?: {
    httpHeaderName?: string;
    httpCookie?: { name: string; path?: string; ttl?: string; attributes?: { name: string; value?: string }[] };
    useSourceIp?: boolean;
    httpQueryParameterName?: string;
    ringHash?: { minimumRingSize?: number };
    maglev?: { tableSize?: number };
    minimumRingSize?: number;
  };
  localityLbSetting?: {
    distribute?: { from?: string; to?: Record<string, number> }[];
    failover?: { from?: string; to?: string }[];
    failoverPriority?: string[];
    enabled?: boolean;
  };
  warmupDurationSecs?: string;
  warmup?: { duration?: string; minimumPercent?: number; aggression?: number };
}

export interface ConnectionPoolSettings {
  tcp?: {
    maxConnections?: number;
    connectTimeout?: string;
    tcpKeepalive?: { probes?: number; time?: string; interval?: string };
    maxConnectionDuration?: string;
    idleTimeout?: string;
  };
  http?: {
    http1MaxPendingRequests?: number;
    http2MaxRequests?: number;
    maxRequestsPerConnection?: number;
    maxRetries?: number;
    idleTimeout?: string;
    h2UpgradePolicy?: 'DEFAULT' | 'DO_NOT_UPGRADE' | 'UPGRADE';
    useClientProtocol?: boolean;
    maxConcurrentStreams?: number;
  };
}

export interface OutlierDetection {
  splitExternalLocalOriginErrors?: boolean;
  consecutiveLocalOriginFailures?: number;
  consecutiveGatewayErrors?: number;
  consecutive5xxErrors?: number;
  consecutiveErrors?: number;
  interval?: string;
  baseEjectionTime?: string;
  maxEjectionPercent?: number;
  minHealthPercent?: number;
}

export interface ClientTLSSettings {
  mode?: 'DISABLE' | 'SIMPLE' | 'MUTUAL' | 'ISTIO_MUTUAL';
  clientCertificate?: string;
  privateKey?: string;
  caCertificates?: string;
  credentialName?: string;
  subjectAltNames?: string[];
  sni?: string;
  insecureSkipVerify?: boolean;
  caCrl?: string;
}

export interface TrafficPolicy {
  loadBalancer?: LoadBalancerSettings;
  connectionPool?: ConnectionPoolSettings;
  outlierDetection?: OutlierDetection;
  tls?: ClientTLSSettings;
  portLevelSettings?: (Omit<TrafficPolicy, 'portLevelSettings'> & { port?: { number?: number } })[];
  tunnel?: { protocol?: string; targetHost: string; targetPort: number };
  proxyProtocol?: { version?: 'V1' | 'V2' };
}

export interface Subset {
  name: string;
  labels?: Record<string, string>;
  trafficPolicy?: TrafficPolicy;
}

export interface DestinationRuleSpec {
  host: string;
  trafficPolicy?: TrafficPolicy;
  subsets?: Subset[];
  exportTo?: string[];
  workloadSelector?: { matchLabels?: Record<string, string> };
}

// ---------------------------------------------------------------- Gateway

export interface ServerTLSSettings {
  httpsRedirect?: boolean;
  mode?: 'PASSTHROUGH' | 'SIMPLE' | 'MUTUAL' | 'AUTO_PASSTHROUGH' | 'ISTIO_MUTUAL' | 'OPTIONAL_MUTUAL';
  serverCertificate?: string;
  privateKey?: string;
  caCertificates?: string;
  caCrl?: string;
  credentialName?: string;
  credentialNames?: string[];
  subjectAltNames?: string[];
  verifyCertificateSpki?: string[];
  verifyCertificateHash?: string[];
  minProtocolVersion?: string;
  maxProtocolVersion?: string;
  cipherSuites?: string[];
}

export interface Port {
  number: number;
  protocol: string;
  name: string;
  targetPort?: number;
}

export interface Server {
  port: Port;
  bind?: string;
  hosts: string[];
  tls?: ServerTLSSettings;
  defaultEndpoint?: string;
  name?: string;
}

export interface GatewaySpec {
  servers: Server[];
  selector?: Record<string, string>;
}

// ---------------------------------------------------------------- ServiceEntry

export interface ServicePortSpec {
  number: number;
  protocol?: string;
  name: string;
  targetPort?: number;
}

export interface WorkloadEntrySpec {
  address?: string;
  ports?: Record<string, number>;
  labels?: Record<string, string>;
  network?: string;
  locality?: string;
  weight?: number;
  serviceAccount?: string;
}

export interface ServiceEntrySpec {
  hosts: string[];
  addresses?: string[];
  ports?: ServicePortSpec[];
  location?: 'MESH_EXTERNAL' | 'MESH_INTERNAL';
  resolution?: 'NONE' | 'STATIC' | 'DNS' | 'DNS_ROUND_ROBIN';
  endpoints?: WorkloadEntrySpec[];
  workloadSelector?: { labels?: Record<string, string> };
  exportTo?: string[];
  subjectAltNames?: string[];
}

// ---------------------------------------------------------------- Sidecar

export interface IstioEgressListener {
  port?: ServicePortSpec;
  bind?: string;
  captureMode?: 'DEFAULT' | 'IPTABLES' | 'NONE';
  hosts: string[];
}
export interface IstioIngressListener {
  port: ServicePortSpec;
  bind?: string;
  captureMode?: 'DEFAULT' | 'IPTABLES' | 'NONE';
  defaultEndpoint?: string;
  tls?: ServerTLSSettings;
  connectionPool?: ConnectionPoolSettings;
}

export interface SidecarSpec {
  workloadSelector?: { labels?: Record<string, string> };
  ingress?: IstioIngressListener[];
  egress?: IstioEgressListener[];
  inboundConnectionPool?: ConnectionPoolSettings;
  outboundTrafficPolicy?: { mode?: 'REGISTRY_ONLY' | 'ALLOW_ANY'; egressProxy?: Destination };
}

// ---------------------------------------------------------------- PeerAuthentication (security.istio.io)

export type MtlsMode = 'UNSET' | 'DISABLE' | 'PERMISSIVE' | 'STRICT';

export interface PeerAuthenticationSpec {
  selector?: { matchLabels?: Record<string, string> };
  mtls?: { mode?: MtlsMode };
  /** Keys are workload (target) port numbers, as strings in YAML. */
  portLevelMtls?: Record<string, { mode?: MtlsMode }>;
}

// ---------------------------------------------------------------- EnvoyFilter (networking.istio.io/v1alpha3 only)
// istio/api networking/v1alpha3/envoy_filter.proto. Patch values stay plain JSON (google.protobuf.Struct) until the
// EnvoyFilter stage decodes them against the Envoy API (server/envoyfilter).

export type EnvoyFilterApplyTo =
  | 'INVALID'
  | 'LISTENER'
  | 'FILTER_CHAIN'
  | 'NETWORK_FILTER'
  | 'HTTP_FILTER'
  | 'ROUTE_CONFIGURATION'
  | 'VIRTUAL_HOST'
  | 'HTTP_ROUTE'
  | 'CLUSTER'
  | 'EXTENSION_CONFIG'
  | 'BOOTSTRAP'
  | 'LISTENER_FILTER';
export type EnvoyFilterPatchContext = 'ANY' | 'SIDECAR_INBOUND' | 'SIDECAR_OUTBOUND' | 'GATEWAY';
export type EnvoyFilterOperation =
  | 'INVALID'
  | 'MERGE'
  | 'ADD'
  | 'REMOVE'
  | 'INSERT_BEFORE'
  | 'INSERT_AFTER'
  | 'INSERT_FIRST'
  | 'REPLACE'
  | 'MERGE_AND_REPLACE_LIST';

export interface EnvoyFilterListenerMatch {
  portNumber?: number;
  portName?: string;
  filterChain?: {
    name?: string;
    sni?: string;
    transportProtocol?: string;
    applicationProtocols?: string;
    filter?: { name?: string; subFilter?: { name?: string } };
    destinationPort?: number;
  };
  listenerFilter?: string;
  name?: string;
}
export interface EnvoyFilterRouteConfigurationMatch {
  portNumber?: number;
  portName?: string;
  gateway?: string;
  vhost?: { name?: string; domainName?: string; route?: { name?: string; action?: 'ANY' | 'ROUTE' | 'REDIRECT' | 'DIRECT_RESPONSE' } };
  name?: string;
}
export interface EnvoyFilterClusterMatch {
  portNumber?: number;
  service?: string;
  subset?: string;
  name?: string;
}
export interface EnvoyConfigObjectPatch {
  applyTo?: EnvoyFilterApplyTo;
  match?: {
    context?: EnvoyFilterPatchContext;
    proxy?: { proxyVersion?: string; metadata?: Record<string, string> };
    listener?: EnvoyFilterListenerMatch;
    routeConfiguration?: EnvoyFilterRouteConfigurationMatch;
    cluster?: EnvoyFilterClusterMatch;
  };
  patch?: { operation?: EnvoyFilterOperation; value?: Record<string, unknown>; filterClass?: 'UNSPECIFIED' | 'AUTHN' | 'AUTHZ' | 'STATS' };
}
export interface PolicyTargetReference {
  group?: string;
  kind: string;
  name: string;
  namespace?: string;
}
export interface EnvoyFilterSpec {
  workloadSelector?: { labels?: Record<string, string> };
  targetRefs?: PolicyTargetReference[];
  configPatches?: EnvoyConfigObjectPatch[];
  priority?: number;
}

export interface IstioSpecs {
  VirtualService: VirtualServiceSpec;
  DestinationRule: DestinationRuleSpec;
  Gateway: GatewaySpec;
  ServiceEntry: ServiceEntrySpec;
  Sidecar: SidecarSpec;
  WorkloadEntry: WorkloadEntrySpec;
  AuthorizationPolicy: AuthorizationPolicySpec;
  PeerAuthentication: PeerAuthenticationSpec;
  EnvoyFilter: EnvoyFilterSpec;
}
export type IstioKind = keyof IstioSpecs;
export const ISTIO_KINDS: readonly IstioKind[] = [
  'VirtualService',
  'DestinationRule',
  'Gateway',
  'ServiceEntry',
  'Sidecar',
  'WorkloadEntry',
  'AuthorizationPolicy',
  'PeerAuthentication',
  'EnvoyFilter',
];
/** Istio kinds served by security.istio.io (the rest are networking.istio.io). */
export const ISTIO_SECURITY_KINDS: ReadonlySet<IstioKind> = new Set<IstioKind>(['PeerAuthentication', 'AuthorizationPolicy']);
