// Status of Gateway API objects as istiod writes it (gateway-api apis/v1 *Status types), plus the proxy
// istiod's gateway deployment controller runs for a Gateway. Shapes only; imported by ../mesh (MeshSnapshot),
// so it imports nothing from it.
import type { InputSource } from '../problem';

/** The same shape as mesh.ts Origin. */
interface Origin {
  source: InputSource;
  file?: string;
  doc?: number;
}

export interface ParentRef {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
  sectionName?: string;
  port?: number;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

export interface ListenerStatus {
  name: string;
  /** meshscope addition (not in the Kubernetes status): the listener's port and protocol, for display. */
  port: number;
  protocol: string;
  attachedRoutes: number;
  supportedKinds: { group: string; kind: string }[];
  conditions: Condition[];
}

/** The Pod/Service istiod's gateway deployment controller creates for a managed Gateway. */
export interface GatewayProxyInfo {
  /** `<gateway>-<class>`: the Deployment, Service and ServiceAccount name. */
  deploymentName: string;
  /** FQDN of the Service the generated Istio Gateways bind to (annotation internal.istio.io/gateway-service). */
  serviceHosts: string[];
  /** Proxy ids (`POD.NS`) of the pods running it; empty = "no proxy deployed". */
  proxies: string[];
  managed: boolean;
}

export interface GatewayStatusModel {
  namespace: string;
  name: string;
  className: string;
  conditions: Condition[];
  listeners: ListenerStatus[];
  proxy: GatewayProxyInfo;
  /** Names (`ns/name`) of the Istio Gateways generated for its listeners. */
  generated: string[];
  origin: Origin;
}

export interface RouteParentStatus {
  parentRef: ParentRef;
  conditions: Condition[];
}

export interface RouteStatusModel {
  kind: 'HTTPRoute' | 'GRPCRoute' | 'TCPRoute' | 'TLSRoute';
  namespace: string;
  name: string;
  hostnames: string[];
  parents: RouteParentStatus[];
  /** Each rule: its Envoy route name (`ns.name.index` or the rule name) and a one-line summary. */
  rules: { name: string; matches: string[]; backends: { name: string; namespace: string; port?: number; weight: number }[] }[];
  /** Names (`ns/name`) of the VirtualServices that carry its rules. */
  generated: string[];
  origin: Origin;
}

export interface GatewayClassStatusModel {
  name: string;
  controllerName: string;
  conditions: Condition[];
}

export interface GatewayApiModel {
  gatewayClasses: GatewayClassStatusModel[];
  gateways: GatewayStatusModel[];
  routes: RouteStatusModel[];
}
