// istio.workload.Workload for every pod with an IP (istiod pilot/pkg/serviceregistry/ambient/workloads.go
// podWorkloadBuilder, buildWorkloadPolicies, setTunnelProtocol, pickTrustDomain; helpers.go generatePodUID;
// authorization.go convertedSelectorPeerAuthentications).
import type { IstioConfig, MeshSnapshot, PodModel, ServiceModel, TranslateOptions } from '../../model/mesh';
import { ipJson } from './ip';
import { type WaypointAddresses, workloadServicePorts } from './services';
import { STATIC_STRICT_POLICY } from './authorization';
import type { SelectorIndex } from './selectIndex';
import { entryServicePorts, type ServiceInfo } from './serviceInfo';

type Json = Record<string, unknown>;

/** helpers.go generatePodUID: `cluster//Pod/namespace/name`. */
export const podUid = (clusterId: string, pod: Pick<PodModel, 'namespace' | 'name'>): string =>
  `${clusterId}//Pod/${pod.namespace}/${pod.name}`;

const selects = (sel: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean =>
  sel !== undefined && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);

/**
 * The workload name (kubeutil.GetWorkloadMetaFromPod): the controller the pod came from (a Deployment when its
 * ReplicaSet carries the pod-template-hash), else the pod's own name.
 */
export function workloadName(pod: PodModel): string {
  if (pod.owner) return pod.owner.name;
  const hash = pod.labels['pod-template-hash'];
  if (hash) {
    const i = pod.name.lastIndexOf(`-${hash}-`);
    if (i > 0) return pod.name.slice(0, i);
  }
  return pod.name;
}

/** kubelabels.CanonicalService: name and revision from the canonical labels, then the app labels, else the workload name / `latest`. */
export function canonicalService(labels: Readonly<Record<string, string>>, workload: string): [string, string] {
  const name = labels['service.istio.io/canonical-name'] ?? labels['app.kubernetes.io/name'] ?? labels['app'] ?? workload;
  const rev = labels['service.istio.io/canonical-revision'] ?? labels['app.kubernetes.io/version'] ?? labels['version'] ?? 'latest';
  return [name, rev];
}

/** setTunnelProtocol: istio-cni's redirection annotation → HBONE; `networking.istio.io/tunnel: http` → HBONE + native tunnel. */
const NATIVE: { tunnelProtocol?: string; nativeTunnel?: boolean } = Object.freeze({ tunnelProtocol: 'HBONE', nativeTunnel: true });
const HBONE: { tunnelProtocol?: string; nativeTunnel?: boolean } = Object.freeze({ tunnelProtocol: 'HBONE' });
const NO_TUNNEL: { tunnelProtocol?: string; nativeTunnel?: boolean } = Object.freeze({});
function tunnel(pod: PodModel): { tunnelProtocol?: string; nativeTunnel?: boolean } {
  const label = pod.labels['networking.istio.io/tunnel'];
  if (label?.split(',').some((t) => t.trim() === 'http')) return NATIVE;
  if (pod.annotations['ambient.istio.io/redirection'] === 'enabled') return HBONE;
  return NO_TUNNEL;
}

const isStrict = (m: string | undefined) => m === 'STRICT';
const isUnset = (m: string | undefined) => m === undefined || m === 'UNSET';

/**
 * convertedSelectorPeerAuthentications, for PeerAuthentications without port-level mTLS: the static STRICT policy
 * when the effective mode (mesh → namespace → workload, oldest wins at each level) is STRICT. Port-level
 * exceptions (convertPeerAuthentication) are not converted: `portLevel` says a workload policy had some.
 */
export function peerAuthenticationKeys(
  snapshot: MeshSnapshot,
  rootNamespace: string,
  pod: Pick<PodModel, 'namespace' | 'labels'>,
  /** The snapshot's PeerAuthentications of the root and the pod's namespace, in input order (all of them will do). */
  candidates: readonly IstioConfig<'PeerAuthentication'>[] = snapshot.peerAuthentications,
): { keys: string[]; portLevel?: IstioConfig<'PeerAuthentication'> } {
  let mesh: IstioConfig<'PeerAuthentication'> | undefined;
  let ns: IstioConfig<'PeerAuthentication'> | undefined;
  let wl: IstioConfig<'PeerAuthentication'> | undefined;
  const older = (a: IstioConfig<'PeerAuthentication'> | undefined, b: IstioConfig<'PeerAuthentication'>) =>
    !a || b.meta.creationTimestamp < a.meta.creationTimestamp ? b : a;
  for (const pa of candidates) {
    const sel = pa.spec.selector?.matchLabels;
    const hasSel = sel !== undefined && Object.keys(sel).length > 0;
    if (pa.meta.namespace === rootNamespace && !hasSel) mesh = older(mesh, pa);
    else if (pa.meta.namespace === pod.namespace && !hasSel) ns = older(ns, pa);
    else if (pa.meta.namespace === pod.namespace && pa.meta.namespace !== rootNamespace && hasSel && selects(sel, pod.labels))
      wl = older(wl, pa);
  }
  let strict = isStrict(mesh?.spec.mtls?.mode);
  if (ns && !isUnset(ns.spec.mtls?.mode)) strict = isStrict(ns.spec.mtls?.mode);
  if (wl) {
    const m = wl.spec.mtls?.mode;
    if (isStrict(m)) strict = true;
    if (m === 'PERMISSIVE' || m === 'DISABLE') strict = false;
    if (wl.spec.portLevelMtls && Object.keys(wl.spec.portLevelMtls).length > 0)
      return { keys: strict ? [`${rootNamespace}/${STATIC_STRICT_POLICY}`] : [], portLevel: wl };
  }
  return { keys: strict ? [`${rootNamespace}/${STATIC_STRICT_POLICY}`] : [] };
}

/** A Kubernetes Service that selects pods, with its selector as pairs. */
export interface SelectingService {
  service: ServiceModel;
  selector: ReadonlyArray<readonly [string, string]>;
  /** Its ports for any selected pod, when no port has a named targetPort (else per pod: workloadServicePorts). */
  ports?: Json;
}

/** A SelectingService for a Service with a non-empty selector. */
export function selectingService(service: ServiceModel, selector: Readonly<Record<string, string>>): SelectingService {
  const named = service.ports.some((p) => typeof p.targetPort === 'string');
  return { service, selector: Object.entries(selector), ...(named ? {} : { ports: workloadServicePorts({ namedPorts: {} }, service) }) };
}

/** What selects a namespace's pods, indexed by label (selectIndex.ts). */
export interface NamespaceSelectors {
  /** Kubernetes Services with a non-empty selector (the only ones that select pods). */
  services: SelectorIndex<SelectingService>;
  /** ServiceEntries with a workloadSelector select pods too (PILOT_ENABLE_SERVICEENTRY_SELECT_PODS). */
  entries: SelectorIndex<ServiceInfo>;
}

export interface WorkloadContext {
  snapshot: MeshSnapshot;
  options: TranslateOptions;
  /** Per namespace, the Services and ServiceEntries that may select its pods, in the order services are sent. */
  selectors: ReadonlyMap<string, NamespaceSelectors>;
  /** `ns/name` of the converted selector policies by namespace (buildWorkloadPolicies reads only those). */
  selectorPolicies: ReadonlyMap<string, ReadonlyArray<{ key: string; selector: Readonly<Record<string, string>> }>>;
  /** The bound waypoints' addresses, made once per view. */
  waypoints: WaypointAddresses;
  /** The PeerAuthentications of the root namespace and `namespace`, in input order. */
  peerAuthentications(namespace: string): readonly IstioConfig<'PeerAuthentication'>[];
}

/** podWorkloadBuilder; undefined for a pod without a usable IP. */
export function workloadJson(
  ctx: WorkloadContext,
  pod: PodModel,
): { json: Json; portLevel?: IstioConfig<'PeerAuthentication'> } | undefined {
  const ip = pod.ip ? ipJson(pod.ip) : undefined;
  if (!ip) return undefined;
  const { snapshot, options } = ctx;
  const root = options.rootNamespace;
  const w: Json = { uid: podUid(options.clusterId, pod), name: pod.name, namespace: pod.namespace, addresses: [ip] };
  const t = tunnel(pod);
  if (t.tunnelProtocol) w['tunnelProtocol'] = t.tunnelProtocol;
  // pickTrustDomain: only a non-default trust domain is sent.
  if (options.trustDomain !== 'cluster.local') w['trustDomain'] = options.trustDomain;
  w['serviceAccount'] = pod.serviceAccount;
  const wp = ctx.waypoints.of(`${pod.namespace}/${pod.name}`, 'workloads');
  if (wp) w['waypoint'] = wp;
  if (pod.nodeName) w['node'] = pod.nodeName;
  const wname = workloadName(pod);
  const [cname, crev] = canonicalService(pod.labels, wname);
  w['canonicalName'] = cname;
  w['canonicalRevision'] = crev;
  // WorkloadType POD is the enum's value 2 (backwards compatibility): proto3 JSON prints it by name.
  w['workloadType'] = 'POD';
  w['workloadName'] = wname;
  if (t.nativeTunnel) w['nativeTunnel'] = true;
  const selectors = ctx.selectors.get(pod.namespace);
  if (selectors) {
    const services: Json = {};
    let any = false;
    for (const { service: s, ports } of selectors.services.matching(pod.labels)) {
      // Ports without a named targetPort are the same for every pod: made once per Service (selectingService).
      services[`${s.namespace}/${s.hostname}`] = ports ?? workloadServicePorts(pod, s);
      any = true;
    }
    for (const info of selectors.entries.matching(pod.labels)) {
      services[`${info.namespace}/${info.hostname}`] = entryServicePorts(pod.namedPorts, info);
      any = true;
    }
    if (any) w['services'] = services;
  }
  const selected: string[] = [];
  for (const p of ctx.selectorPolicies.get(root) ?? []) if (selects(p.selector, pod.labels)) selected.push(p.key);
  if (pod.namespace !== root)
    for (const p of ctx.selectorPolicies.get(pod.namespace) ?? []) if (selects(p.selector, pod.labels)) selected.push(p.key);
  selected.sort();
  const pa = peerAuthenticationKeys(snapshot, root, pod, ctx.peerAuthentications(pod.namespace));
  const policies = pa.keys.length ? [...selected, ...pa.keys] : selected;
  if (policies.length) w['authorizationPolicies'] = policies;
  if (!pod.ready) w['status'] = 'UNHEALTHY';
  w['clusterId'] = options.clusterId;
  const loc = pod.locality;
  if (loc.region || loc.zone || loc.subzone) {
    const l: Json = {};
    if (loc.region) l['region'] = loc.region;
    if (loc.zone) l['zone'] = loc.zone;
    if (loc.subzone) l['subzone'] = loc.subzone;
    w['locality'] = l;
  }
  return { json: w, ...(pa.portLevel ? { portLevel: pa.portLevel } : {}) };
}
