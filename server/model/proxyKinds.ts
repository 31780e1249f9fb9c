// Proxy kinds as data (the lead's direction for the ambient wave): which translator builds a kind's table,
// which xDS types it is served, and its node-id type (istiod model.NodeType: pkg/model/proxy.go
// SidecarProxy / Router / Waypoint / Ztunnel). translate, xds and simulate look a proxy's kind up here
// instead of branching on `proxy.type`.
import { TYPE, type TypeUrl } from './xdsTypes';

export type ProxyKind = 'sidecar' | 'router' | 'waypoint' | 'ztunnel';

/** The translator that builds a kind's resources (server/translate/index.ts TRANSLATORS). */
export type TranslatorName = 'sidecar' | 'gateway' | 'waypoint' | 'ztunnel';

export interface ProxyKindSpec {
  kind: ProxyKind;
  /** The first field of the node id (`sidecar~10.0.0.1~pod.ns~ns.svc.cluster.local`). */
  nodeType: string;
  translator: TranslatorName;
  /** The xDS types this kind is served, in push order. */
  typeUrls: readonly TypeUrl[];
  /** Runs Envoy (config_dump, the simulator and EnvoyFilters apply). */
  envoy: boolean;
  /**
   * Whether its translation reads the proxy at all. ztunnel's WDS is the same for every ztunnel (istiod sends
   * each the whole Address / Authorization set), so all ztunnels share one translation per snapshot.
   */
  perProxy: boolean;
  /**
   * Whether it sends a Service's traffic to the Service's waypoint (endpoint_builder.go findServiceWaypoint, under
   * the ambient profile's EnableIngressWaypointRouting): routers do when the Service or its namespace says
   * `istio.io/ingress-use-waypoint`; sidecars and waypoints never — they send to the workloads themselves.
   */
  serviceWaypoints: 'ingress-use-waypoint' | 'never';
}

const ENVOY_TYPES: readonly TypeUrl[] = [TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route];

export const PROXY_KINDS: Readonly<Record<ProxyKind, ProxyKindSpec>> = {
  sidecar: {
    kind: 'sidecar',
    nodeType: 'sidecar',
    translator: 'sidecar',
    typeUrls: ENVOY_TYPES,
    envoy: true,
    perProxy: true,
    serviceWaypoints: 'never',
  },
  router: {
    kind: 'router',
    nodeType: 'router',
    translator: 'gateway',
    typeUrls: ENVOY_TYPES,
    envoy: true,
    perProxy: true,
    serviceWaypoints: 'ingress-use-waypoint',
  },
  waypoint: {
    kind: 'waypoint',
    nodeType: 'waypoint',
    translator: 'waypoint',
    typeUrls: ENVOY_TYPES,
    envoy: true,
    perProxy: true,
    serviceWaypoints: 'never',
  },
  // ztunnel is sent WDS only (istiod pilot/pkg/xds/workload.go WorkloadGenerator, WorkloadRBACGenerator).
  ztunnel: {
    kind: 'ztunnel',
    nodeType: 'ztunnel',
    translator: 'ztunnel',
    typeUrls: [TYPE.address, TYPE.authorization],
    envoy: false,
    perProxy: false,
    serviceWaypoints: 'never',
  },
};

const BY_NODE_TYPE: ReadonlyMap<string, ProxyKind> = new Map(Object.values(PROXY_KINDS).map((k) => [k.nodeType, k.kind]));

/** The kind of a node-id type (`sidecar`, `router`, `waypoint`, `ztunnel`); undefined for anything else. */
export const kindOfNodeType = (nodeType: string | undefined): ProxyKind | undefined =>
  nodeType === undefined ? undefined : BY_NODE_TYPE.get(nodeType);

export const proxyKind = (proxy: { type: ProxyKind }): ProxyKindSpec => PROXY_KINDS[proxy.type];
