// buildAmbientIndex: the ambient registry istiod keeps beside the PushContext
// (pilot/pkg/serviceregistry/ambient/ambientindex.go) — which pods are redirected to ztunnel, the waypoints,
// which waypoint every Service and pod is bound to (or why none), and which Services and workloads each waypoint
// proxy serves (ServicesForWaypoint / WorkloadsForWaypoint by the proxy's WaypointKey). Built once per snapshot
// (../snapshot) when istiod runs with the ambient profile. Pure.
import { byteCompare } from '../../lib/compare';
import type { GatewayApiObjects } from '../gatewayapi/types';
import type { NamespaceModel, PodModel, ServiceModel } from '../mesh';
import { isAmbientRedirected, proxyIdOf } from '../proxyIdentity';
import { type BindingContext, ingressUseWaypoint, waypointForService, waypointForWorkload } from './bindings';
import type { AmbientIndex, ServiceBinding, WaypointModel, WorkloadBinding } from './types';
import { buildWaypoints, GATEWAY_NAME_LABEL } from './waypoints';

export type { AmbientIndex, ServiceBinding, WaypointModel, WorkloadBinding } from './types';
export { addressText } from './waypoints';

/** label networking.istio.io/tunnel (model.TunnelLabel): a comma-separated list of the tunnels a workload speaks. */
const TUNNEL_LABEL = 'networking.istio.io/tunnel';

/**
 * What makes a pod ambient for istiod (workloads.go setTunnelProtocol): istio-cni's annotation
 * `ambient.istio.io/redirection: enabled` (TunnelProtocol HBONE), or a native tunnel `networking.istio.io/tunnel: http`
 * (model.SupportsTunnel). The namespace label istio.io/dataplane-mode is NOT read here: only istio-cni reads it.
 */
export function isAmbientPod(pod: Pick<PodModel, 'labels' | 'annotations'>): boolean {
  if (isAmbientRedirected(pod.annotations)) return true;
  const tunnel = pod.labels[TUNNEL_LABEL];
  return tunnel?.split(',').some((t) => t.trim() === 'http') ?? false;
}

export interface AmbientInputs {
  namespaces: ReadonlyMap<string, NamespaceModel>;
  pods: readonly PodModel[];
  /** The snapshot's services (Kubernetes Services and ServiceEntry hosts), in creation order. */
  services: readonly ServiceModel[];
  gatewayApi: Pick<GatewayApiObjects, 'gateways' | 'gatewayClasses'>;
}

const labelsMatch = (selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

export function buildAmbientIndex(input: AmbientInputs): AmbientIndex {
  const { waypoints, pending } = buildWaypoints(input.gatewayApi.gateways, input.gatewayApi.gatewayClasses, input.pods);
  const ctx: BindingContext = { waypoints, namespaces: input.namespaces, pending: new Map(pending.map((p) => [p.key, p.reason])) };

  const services = new Map<string, ServiceBinding>();
  for (const s of input.services) {
    const key = `${s.namespace}/${s.hostname}`;
    if (services.has(key)) continue;
    const kind = s.ref.kind === 'ServiceEntry' ? 'ServiceEntry' : 'Service';
    const b = waypointForService({ namespace: s.namespace, labels: s.labels, describe: `${kind} ${s.namespace}/${s.name}` }, ctx);
    const ingress = b.waypoint ? ingressUseWaypoint(s.labels, input.namespaces.get(s.namespace)?.labels) : { present: false, use: false };
    services.set(key, {
      ...b,
      key,
      namespace: s.namespace,
      hostname: s.hostname,
      ingressLabelPresent: ingress.present,
      ingressUseWaypoint: ingress.use,
    });
  }

  const workloads = new Map<string, WorkloadBinding>();
  for (const p of input.pods) workloads.set(`${p.namespace}/${p.name}`, workloadBinding(p, ctx));

  const { servicesForProxy, workloadsForProxy } = waypointProxies(input, waypoints, services, workloads);
  return { waypoints, pending, services, workloads, servicesForProxy, workloadsForProxy };
}

function workloadBinding(p: PodModel, ctx: BindingContext): WorkloadBinding {
  const key = `${p.namespace}/${p.name}`;
  const base = { key, namespace: p.namespace, name: p.name, ambient: isAmbientPod(p) };
  // computeWaypoint: an instance of a waypoint has no waypoint of its own.
  const gwName = p.labels[GATEWAY_NAME_LABEL];
  const instanceOf = gwName !== undefined ? ctx.waypoints.get(`${p.namespace}/${gwName}`) : undefined;
  if (instanceOf) return { ...base, instanceOf: instanceOf.key };
  return { ...base, ...waypointForWorkload({ namespace: p.namespace, labels: p.labels, describe: `Pod ${key}` }, ctx) };
}

/**
 * The index after pods changed in place (same namespace/name, everything else of the snapshot unchanged), or
 * undefined when the change reaches past their own bindings: a pod of a waypoint's deployment (the waypoints),
 * a waypoint proxy (what it serves), or a pod bound to a waypoint before or after (that waypoint's workloads).
 * Equal to buildAmbientIndex of the new inputs otherwise (server/model/snapshotCache.property.test.ts).
 */
export function patchAmbientPods(
  prev: AmbientIndex,
  namespaces: ReadonlyMap<string, NamespaceModel>,
  changed: readonly { before: PodModel; after: PodModel }[],
): AmbientIndex | undefined {
  const ctx: BindingContext = { waypoints: prev.waypoints, namespaces, pending: new Map(prev.pending.map((p) => [p.key, p.reason])) };
  const set = new Map<string, WorkloadBinding>();
  for (const { before, after } of changed) {
    for (const p of [before, after]) if (p.proxy === 'waypoint' || p.labels[GATEWAY_NAME_LABEL] !== undefined) return undefined;
    const key = `${after.namespace}/${after.name}`;
    const old = prev.workloads.get(key);
    const next = workloadBinding(after, ctx);
    if (old?.waypoint !== undefined || next.waypoint !== undefined) return undefined;
    // A binding reads no IP: a pod IP change leaves the index as it was (no copy of a Map of every pod).
    if (!old || JSON.stringify(old) !== JSON.stringify(next)) set.set(key, next);
  }
  if (set.size === 0) return prev;
  const workloads = new Map(prev.workloads);
  for (const [key, b] of set) workloads.set(key, b);
  return { ...prev, workloads };
}

/**
 * model.WaypointKeyForProxy + ServicesForWaypoint / WorkloadsForWaypoint: a waypoint proxy's key is its namespace,
 * the hostnames and VIPs of the Services selecting its pod; it serves every Service and workload whose waypoint
 * address is one of those hostnames (in its namespace) or VIPs.
 */
function waypointProxies(
  input: AmbientInputs,
  waypoints: ReadonlyMap<string, WaypointModel>,
  services: ReadonlyMap<string, ServiceBinding>,
  workloads: ReadonlyMap<string, WorkloadBinding>,
): Pick<AmbientIndex, 'servicesForProxy' | 'workloadsForProxy'> {
  const servicesForProxy = new Map<string, string[]>();
  const workloadsForProxy = new Map<string, string[]>();
  const owns = (wpKey: string | undefined, ns: string, hosts: ReadonlySet<string>, vips: ReadonlySet<string>): boolean => {
    const w = wpKey !== undefined ? waypoints.get(wpKey) : undefined;
    if (!w) return false;
    const a = w.address;
    return 'hostname' in a ? a.hostname.namespace === ns && hosts.has(a.hostname.hostname) : vips.has(a.address.ip);
  };
  const podByKey = new Map(input.pods.map((p) => [`${p.namespace}/${p.name}`, p]));
  for (const pod of input.pods) {
    if (pod.proxy !== 'waypoint') continue;
    const targets = input.services.filter(
      (s) => s.ref.kind === 'Service' && s.namespace === pod.namespace && labelsMatch(s.selector, pod.labels),
    );
    const hosts = new Set(targets.map((s) => s.hostname));
    const vips = new Set(targets.flatMap((s) => s.addresses.filter((a) => a !== '0.0.0.0')));
    const id = proxyIdOf(pod.name, pod.namespace);
    // The snapshot's services are in creation order (SortServicesByCreationTime); a host is listed once.
    servicesForProxy.set(
      id,
      [...services.values()].filter((b) => owns(b.waypoint, pod.namespace, hosts, vips)).map((b) => b.key),
    );
    const bound = [...workloads.values()].filter((b) => owns(b.waypoint, pod.namespace, hosts, vips));
    // SortWorkloadsByCreationTime: creation time, then namespace/name.
    bound.sort((a, b) => {
      const pa = podByKey.get(a.key)!;
      const pb = podByKey.get(b.key)!;
      return Date.parse(pa.creationTimestamp) - Date.parse(pb.creationTimestamp) || byteCompare(a.key, b.key);
    });
    workloadsForProxy.set(
      id,
      bound.map((b) => b.key),
    );
  }
  return { servicesForProxy, workloadsForProxy };
}

/** The waypoint a Service (by namespace and hostname) is bound to, with its binding. */
export function serviceWaypoint(
  index: AmbientIndex,
  namespace: string,
  hostname: string,
): { binding?: ServiceBinding; waypoint?: WaypointModel } {
  const binding = index.services.get(`${namespace}/${hostname}`);
  const waypoint = binding?.waypoint !== undefined ? index.waypoints.get(binding.waypoint) : undefined;
  return { ...(binding ? { binding } : {}), ...(waypoint ? { waypoint } : {}) };
}
