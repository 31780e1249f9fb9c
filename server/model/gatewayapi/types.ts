// Kubernetes Gateway API (gateway.networking.k8s.io) objects as meshscope reads them, after the CRD
// defaults the API server applies (./defaults.ts), plus the status istiod computes for them. Shapes only.
// Reference: sigs.k8s.io/gateway-api apis/v1 (httproute_types.go, gateway_types.go, shared_types.go).
import type { ObjectMeta, Origin } from '../mesh';
import type { ParentRef } from './status';

export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
export const GATEWAY_API_KINDS = ['GatewayClass', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'ReferenceGrant'] as const;
export type GatewayApiKind = (typeof GATEWAY_API_KINDS)[number];
export const isGatewayApiKind = (k: string): k is GatewayApiKind => (GATEWAY_API_KINDS as readonly string[]).includes(k);

/** A Gateway API object: `spec` is the defaulted spec of its kind. */
export interface GwObject<S> {
  kind: GatewayApiKind;
  apiVersion: string;
  meta: ObjectMeta;
  spec: S;
  origin: Origin;
  /** Gateways: status.addresses (type defaults to IPAddress, as the CRD does). */
  statusAddresses?: { type: string; value: string }[];
}

export interface BackendRef {
  group: string;
  kind: string;
  name: string;
  namespace?: string;
  port?: number;
  weight: number;
  filters: HTTPRouteFilter[];
}

export interface HeaderKV {
  name: string;
  value: string;
}
export interface HeaderModifier {
  set?: HeaderKV[];
  add?: HeaderKV[];
  remove?: string[];
}
export interface PathModifier {
  type: 'ReplaceFullPath' | 'ReplacePrefixMatch';
  replaceFullPath?: string;
  replacePrefixMatch?: string;
}
export interface HTTPRouteFilter {
  type: string;
  requestHeaderModifier?: HeaderModifier;
  responseHeaderModifier?: HeaderModifier;
  requestRedirect?: { scheme?: string; hostname?: string; path?: PathModifier; port?: number; statusCode: number };
  urlRewrite?: { hostname?: string; path?: PathModifier };
  cors?: {
    allowOrigins: string[];
    allowCredentials?: boolean;
    allowMethods: string[];
    allowHeaders: string[];
    exposeHeaders: string[];
    maxAge: number;
  };
  requestMirror?: {
    backendRef: { group: string; kind: string; name: string; namespace?: string; port?: number };
    percent?: number;
    fraction?: { numerator: number; denominator: number };
  };
}

export interface HTTPRouteMatch {
  path: { type: 'Exact' | 'PathPrefix' | 'RegularExpression'; value: string };
  headers: { type: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  queryParams: { type: 'Exact' | 'RegularExpression'; name: string; value: string }[];
  method?: string;
}

export interface HTTPRouteRule {
  name?: string;
  matches: HTTPRouteMatch[];
  filters: HTTPRouteFilter[];
  backendRefs: BackendRef[];
  timeouts?: { request?: string; backendRequest?: string };
  retry?: { codes?: number[]; attempts?: number; backoff?: string };
}

export interface GRPCRouteMatch {
  method?: { type: 'Exact' | 'RegularExpression'; service?: string; method?: string };
  headers: { type: 'Exact' | 'RegularExpression'; name: string; value: string }[];
}
export interface GRPCRouteRule {
  name?: string;
  matches: GRPCRouteMatch[];
  filters: HTTPRouteFilter[];
  backendRefs: BackendRef[];
}

export interface L4RouteRule {
  name?: string;
  backendRefs: BackendRef[];
}

export interface RouteSpec<R> {
  parentRefs: ParentRef[];
  hostnames: string[];
  rules: R[];
}
export type HTTPRouteSpec = RouteSpec<HTTPRouteRule>;
export type GRPCRouteSpec = RouteSpec<GRPCRouteRule>;
export type L4RouteSpec = RouteSpec<L4RouteRule>;

export interface Listener {
  name: string;
  hostname?: string;
  port: number;
  protocol: string;
  tls?: { mode: 'Terminate' | 'Passthrough'; certificateRefs: { group: string; kind: string; name: string; namespace?: string }[] };
  allowedRoutes: {
    namespaces: { from: 'All' | 'Same' | 'Selector'; selector?: LabelSelector };
    kinds?: { group: string; kind: string }[];
  };
}
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
export interface GatewaySpec {
  gatewayClassName: string;
  listeners: Listener[];
  addresses: { type: string; value: string }[];
}
export interface GatewayClassSpec {
  controllerName: string;
}
export interface ReferenceGrantSpec {
  from: { group: string; kind: string; namespace: string }[];
  to: { group: string; kind: string; name?: string }[];
}

export interface GatewayApiObjects {
  gatewayClasses: GwObject<GatewayClassSpec>[];
  gateways: GwObject<GatewaySpec>[];
  httpRoutes: GwObject<HTTPRouteSpec>[];
  grpcRoutes: GwObject<GRPCRouteSpec>[];
  tcpRoutes: GwObject<L4RouteSpec>[];
  tlsRoutes: GwObject<L4RouteSpec>[];
  referenceGrants: GwObject<ReferenceGrantSpec>[];
}

export type {
  ParentRef,
  Condition,
  GatewayApiModel,
  GatewayClassStatusModel,
  GatewayProxyInfo,
  GatewayStatusModel,
  ListenerStatus,
  RouteParentStatus,
  RouteStatusModel,
} from './status';
