// Proxy identity (DESIGN.md §3), in one place: which pods run a proxy (the sidecar injector's rules), the
// ProxyModel of such a pod (id `POD.NAMESPACE`), the Istio node id a connecting proxy sends
// (pilot/pkg/model/context.go ParseServiceNodeWithMetadata: TYPE~IP~POD.NAMESPACE~NAMESPACE.svc.DOMAIN) with
// its node metadata (NAMESPACE, LABELS, INSTANCE_IPS, …), and how a connected node is matched to a proxy of
// the snapshot, or modelled from its node alone. Pure, browser-safe.
import { asNonEmptyString, asStringRecord } from '../lib/json';
import type { MeshSnapshot, NamespaceModel, ObjectMeta, PodModel, ProxyModel } from './mesh';
import type { KubePodSpec } from './schema/kube';
import { kindOfNodeType, PROXY_KINDS } from './proxyKinds';

/** The id meshscope and istiod give a pod's proxy: `POD.NAMESPACE`. */
export const proxyIdOf = (name: string, namespace: string): string => `${name}.${namespace}`;

const INJECT = 'sidecar.istio.io/inject';
/** constants.ManagedGatewayMeshControllerLabel: the gateway.istio.io/managed value of waypoint pods. */
export const MESH_CONTROLLER_LABEL = 'istio.io-mesh-controller';
/** annotation.AmbientRedirection = constants.AmbientRedirectionEnabled: istio-cni redirected the pod to ztunnel. */
export const isAmbientRedirected = (annotations: Readonly<Record<string, string>>): boolean =>
  annotations['ambient.istio.io/redirection'] === 'enabled';
/** pkg/kube/inject/inject.go:IgnoredNamespaces: the injector never injects pods of these namespaces. */
const NEVER_INJECTED_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease', 'local-path-storage']);

/** Istio proxy detection (sidecar injector namespace/pod opt-in/out; gateways by label or `router` arg). */
export function proxyType(
  meta: Pick<ObjectMeta, 'labels' | 'annotations' | 'namespace'>,
  spec: KubePodSpec,
  namespaces: ReadonlyMap<string, NamespaceModel>,
  anyNamespaceDeclared: boolean,
): PodModel['proxy'] {
  const proxyContainer = (spec.containers ?? []).find((c) => c.name === 'istio-proxy');
  // Pods istiod's gateway deployment controller runs for a Gateway API Gateway carry these labels (kube-gateway.yaml).
  const gatewayLabel =
    meta.labels.istio === 'ingressgateway' ||
    meta.labels.istio === 'egressgateway' ||
    meta.labels['gateway.istio.io/managed'] === 'istio.io-gateway-controller';
  const args = proxyContainer?.args ?? [];
  const isRouter = gatewayLabel || args.includes('router');
  // Waypoints (istiod's waypoint deployment template, kube-gateway.yaml for the mesh controller): `proxy waypoint`,
  // labelled gateway.istio.io/managed=istio.io-mesh-controller.
  const isWaypoint = meta.labels['gateway.istio.io/managed'] === MESH_CONTROLLER_LABEL || args.includes('waypoint');
  if (isWaypoint) return 'waypoint';
  // istio-cni enrols only pods without a sidecar (cni/pkg/util/podutil.go podHasSidecar): a pod it annotated
  // `ambient.istio.io/redirection: enabled` and that has no proxy container is ambient, never an injected sidecar.
  if (proxyContainer === undefined && meta.annotations['sidecar.istio.io/status'] === undefined && isAmbientRedirected(meta.annotations))
    return 'none';
  const injectFlag = meta.labels[INJECT] ?? meta.annotations[INJECT];
  const nsLabels = namespaces.get(meta.namespace)?.labels ?? {};
  const nsInjection = nsLabels['istio-injection'];
  const nsEnabled = nsInjection === 'enabled' || (nsLabels['istio.io/rev'] !== undefined && nsInjection !== 'disabled');
  const injected =
    !spec.hostNetwork &&
    !NEVER_INJECTED_NAMESPACES.has(meta.namespace) &&
    injectFlag !== 'false' &&
    (nsEnabled || !anyNamespaceDeclared || (injectFlag === 'true' && nsInjection !== 'disabled'));
  const isProxy = proxyContainer !== undefined || meta.annotations['sidecar.istio.io/status'] !== undefined || gatewayLabel || injected;
  if (!isProxy) return 'none';
  return isRouter ? 'router' : 'sidecar';
}

/** The ProxyModel of a pod that runs a proxy: id `POD.NS`, a gateway (`router`), a `waypoint` or a `sidecar`. */
export function proxyOf(p: PodModel): ProxyModel {
  return {
    id: proxyIdOf(p.name, p.namespace),
    type: p.proxy === 'router' || p.proxy === 'waypoint' ? p.proxy : 'sidecar',
    name: p.name,
    namespace: p.namespace,
    labels: p.labels,
    ips: [p.ip],
    serviceAccount: p.serviceAccount,
    locality: p.locality,
  };
}

/** Node types istiod accepts in the first id segment (model.IsApplicationNodeType). */
const NODE_TYPES: ReadonlySet<string> = new Set(Object.values(PROXY_KINDS).map((k) => k.nodeType));

export interface ParsedNodeId {
  /** `sidecar`, `router`, …; set whenever the id has four parts, even when the type is unknown. */
  type?: string;
  /** `POD.NAMESPACE` for an Istio-shaped id; otherwise the raw id. */
  proxyId: string;
  /** The IP of the second segment, when there is one. */
  ips: string[];
  /** NAMESPACE metadata, else the id's part after the first `.`, else the domain's first label. */
  namespace?: string;
  /** Why the id is not Istio-shaped (the node is still served under its raw id). */
  error?: string;
}

/**
 * ParseServiceNodeWithMetadata: the node id's four `~`-separated parts and the node metadata that refine it
 * (NAMESPACE wins over the id; INSTANCE_IPS, comma-separated, over the id's IP). Never throws.
 */
export function parseNodeId(nodeId: string, metadata: Readonly<Record<string, unknown>> = {}): ParsedNodeId {
  const out: ParsedNodeId = { proxyId: nodeId, ips: [] };
  const metaNs = asNonEmptyString(metadata['NAMESPACE']);
  const parts = nodeId.split('~');
  if (parts.length !== 4) {
    out.error = `node id "${nodeId}" is not TYPE~IP~POD.NAMESPACE~DOMAIN (${parts.length} parts)`;
  } else {
    const [type, ip, id, domain] = parts as [string, string, string, string];
    if (!NODE_TYPES.has(type)) out.error = `node id "${nodeId}": unknown node type "${type}"`;
    out.type = type;
    if (id) out.proxyId = id;
    if (ip) out.ips = [ip];
    const dot = id.indexOf('.');
    const fromId = dot > 0 ? id.slice(dot + 1) : undefined;
    const fromDomain = domain.split('.')[0] || undefined;
    const ns = metaNs ?? fromId ?? fromDomain;
    if (ns) out.namespace = ns;
  }
  if (!out.namespace && metaNs) out.namespace = metaNs;
  const instanceIps = asNonEmptyString(metadata['INSTANCE_IPS']);
  if (instanceIps)
    out.ips = instanceIps
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return out;
}

/** LABELS node metadata: its string values. */
export const nodeLabels = (metadata: Readonly<Record<string, unknown>>): Record<string, string> => asStringRecord(metadata['LABELS']);

/** What a connected node says about itself (xds ClientInfo has these fields). */
export interface NodeIdentity {
  proxyId: string;
  ips: readonly string[];
  nodeType?: string;
  namespace?: string;
  labels: Readonly<Record<string, string>>;
  locality?: { region: string; zone: string; subZone: string };
  metadata: Readonly<Record<string, unknown>>;
}

/** How a connected node was matched: by its node id, by its IP, or not at all (a proxy made from its node). */
export type MatchedBy = 'node id' | 'ip' | 'node metadata';

/** How a node may be matched beyond its node id. */
export interface MatchOptions {
  /** istiod's ENABLE_PROXY_FIND_POD_BY_IP (off by default since istio/istio#56502). */
  findPodByIp?: boolean;
}

type MatchInput = Pick<NodeIdentity, 'proxyId' | 'ips'> & Partial<Pick<NodeIdentity, 'namespace' | 'metadata'>>;

/**
 * The snapshot's proxy for a node, and how it was matched, as istiod finds a proxy's pod
 * (pilot/pkg/serviceregistry/kube/controller/pod.go getPodByProxy, util.go podKeyByProxy):
 * - by `POD.NAMESPACE` from the node id, unless the NAMESPACE metadata names another namespace;
 * - by IP only when `findPodByIp` is on, and then by the node's FIRST IP only: one proxy with it → that one;
 *   several → the one in the node's namespace; none there → no match.
 * Otherwise there is no registry match (the caller models the proxy from the node, as istiod's
 * GetProxyServiceTargetsFromMetadata does). One difference: a node without NAMESPACE metadata is still
 * matched by name (istiod requires the metadata; the namespace is in the id anyway).
 */
export function matchNode(
  snapshot: MeshSnapshot,
  node: MatchInput,
  opts: MatchOptions = {},
): { proxy: ProxyModel; by: MatchedBy } | undefined {
  const dot = node.proxyId.indexOf('.');
  const idNamespace = dot > 0 ? node.proxyId.slice(dot + 1) : undefined;
  const metaNamespace = asNonEmptyString(node.metadata?.['NAMESPACE']);
  const byId = metaNamespace === undefined || metaNamespace === idNamespace ? snapshot.proxiesById.get(node.proxyId) : undefined;
  if (byId) return { proxy: byId, by: 'node id' };
  const ip = node.ips[0];
  if (!opts.findPodByIp || !ip) return undefined;
  const withIp = snapshot.proxies.filter((p) => p.ips.includes(ip));
  if (withIp.length === 1) return { proxy: withIp[0]!, by: 'ip' };
  const sameNs = withIp.find((p) => p.namespace === (node.namespace ?? idNamespace));
  return sameNs ? { proxy: sameNs, by: 'ip' } : undefined;
}

/** The snapshot's proxy for a node (matchNode). */
export function proxyForNode(snapshot: MeshSnapshot, node: MatchInput, opts: MatchOptions = {}): ProxyModel | undefined {
  return matchNode(snapshot, node, opts)?.proxy;
}

/**
 * A proxy for a node the registry does not know, from the node alone (istiod builds model.Proxy from the node
 * id and metadata): needs a namespace (NAMESPACE metadata or an Istio-shaped node id).
 */
export function proxyFromNode(node: NodeIdentity): ProxyModel | undefined {
  if (!node.namespace) return undefined;
  const dot = node.proxyId.indexOf('.');
  return {
    id: node.proxyId,
    type: kindOfNodeType(node.nodeType) ?? 'sidecar',
    name: dot > 0 ? node.proxyId.slice(0, dot) : node.proxyId,
    namespace: node.namespace,
    labels: node.labels,
    ips: node.ips,
    locality: { region: node.locality?.region ?? '', zone: node.locality?.zone ?? '', subzone: node.locality?.subZone ?? '' },
    metadata: asStringRecord(node.metadata),
  };
}
