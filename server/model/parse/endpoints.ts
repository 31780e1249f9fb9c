// Endpoints per (service, service port): EndpointSlices when a Service has any, else the ready/unready pods its
// selector picks (targetPort resolved); ServiceEntry endpoints / workloadSelector pods / DNS host endpoints
// (serviceentry/conversion.go:convertServiceEntryToInstances, convertWorkloadInstanceToServiceInstance).
import type { EndpointModel, IstioConfig, Locality, PodModel, ServiceModel } from '../mesh';
import {
  kubeServiceWorkloadEntryEndpoints,
  selectedBy,
  serviceEntryInstanceEndpoints,
  type WorkloadInstance,
  workloadEntryInstance,
} from './workloads';
import type { KubeEndpointSlice } from '../schema/kube';
import type { KubeObject } from './objects';
import { localityOf } from './pods';
import { byteCompare } from '../../lib/compare';

export type EndpointIndex = Map<string, Map<number, EndpointModel[]>>;

const selects = (selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

function push(index: EndpointIndex, key: string, servicePort: number, ep: EndpointModel): void {
  let byPort = index.get(key);
  if (!byPort) index.set(key, (byPort = new Map()));
  const list = byPort.get(servicePort);
  if (list) list.push(ep);
  else byPort.set(servicePort, [ep]);
}

/** EndpointModels of the last build per PodModel and `port/servicePort` (model/snapshotCache). */
export type PodEndpointMemo = WeakMap<PodModel, Map<string, EndpointModel>>;

function podEndpoint(pod: PodModel, port: number, servicePort: number, memo: PodEndpointMemo | undefined): EndpointModel {
  if (!memo) return newPodEndpoint(pod, port, servicePort);
  let byPort = memo.get(pod);
  if (!byPort) memo.set(pod, (byPort = new Map()));
  const k = `${port}/${servicePort}`;
  let ep = byPort.get(k);
  if (!ep) byPort.set(k, (ep = newPodEndpoint(pod, port, servicePort)));
  return ep;
}

function newPodEndpoint(pod: PodModel, port: number, servicePort: number): EndpointModel {
  return {
    address: pod.ip,
    port,
    servicePort,
    labels: pod.labels,
    namespace: pod.namespace,
    podName: pod.name,
    serviceAccount: pod.serviceAccount,
    locality: pod.locality,
    weight: 1,
    healthy: pod.ready,
  };
}

/** Resolves a Kubernetes targetPort against a pod: number as is, a name via the pod's container ports. */
export function resolveTargetPort(target: number | string | undefined, servicePort: number, pod: PodModel): number | undefined {
  if (target === undefined) return servicePort;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  return pod.namedPorts[target];
}

/**
 * The pods of a namespace a selector picks, in pod order: candidates come from the rarest `key=value` of the
 * selector (an index per namespace, built on first use), then every pair is checked. Same result as filtering
 * every pod of the namespace, without scanning them all for each Service.
 */
class PodLabelIndex {
  private readonly byPair = new Map<string, Map<string, PodModel[]>>();
  constructor(private readonly podsByNs: ReadonlyMap<string, readonly PodModel[]>) {}

  select(namespace: string, selector: Readonly<Record<string, string>>): PodModel[] {
    const all = this.podsByNs.get(namespace) ?? [];
    const pairs = Object.entries(selector);
    if (pairs.length === 0) return all.slice();
    let index = this.byPair.get(namespace);
    if (!index) {
      index = new Map();
      for (const p of all)
        for (const [k, v] of Object.entries(p.labels)) {
          const pk = `${k}\u0000${v}`;
          const list = index.get(pk);
          if (list) list.push(p);
          else index.set(pk, [p]);
        }
      this.byPair.set(namespace, index);
    }
    let fewest: readonly PodModel[] | undefined;
    for (const [k, v] of pairs) {
      const list = index.get(`${k}\u0000${v}`);
      if (!list) return [];
      if (!fewest || list.length < fewest.length) fewest = list;
    }
    return (fewest ?? all).filter((p) => selects(selector, p.labels));
  }
}

export function kubeEndpoints(
  services: readonly ServiceModel[],
  slices: readonly KubeObject<KubeEndpointSlice>[],
  pods: readonly PodModel[],
  nodeLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
  index: EndpointIndex,
  memo?: PodEndpointMemo,
): void {
  const slicesBySvc = new Map<string, KubeObject<KubeEndpointSlice>[]>();
  for (const s of slices) {
    const svc = s.meta.labels['kubernetes.io/service-name'];
    if (!svc) continue;
    const k = `${s.meta.namespace}/${svc}`;
    const list = slicesBySvc.get(k);
    if (list) list.push(s);
    else slicesBySvc.set(k, [s]);
  }
  const podsByNs = new Map<string, PodModel[]>();
  for (const p of pods) {
    const list = podsByNs.get(p.namespace);
    if (list) list.push(p);
    else podsByNs.set(p.namespace, [p]);
  }
  const byLabels = new PodLabelIndex(podsByNs);
  const podsByName = new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p]));
  const podsByIp = new Map(pods.map((p) => [p.ip, p]));

  for (const svc of services) {
    if (svc.registry !== 'Kubernetes' || svc.resolution === 'Alias') continue;
    const key = `${svc.namespace}/${svc.hostname}`;
    const own = slicesBySvc.get(`${svc.namespace}/${svc.name}`);
    if (own && own.length > 0) {
      for (const slice of own) {
        for (const sp of slice.body.ports ?? []) {
          const svcPort =
            svc.ports.find((p) => p.name === (sp.name ?? '')) ?? (svc.ports.length === 1 && !sp.name ? svc.ports[0] : undefined);
          if (!svcPort || sp.port === undefined) continue;
          for (const e of slice.body.endpoints ?? []) {
            for (const address of e.addresses) {
              const ref =
                e.targetRef?.kind === 'Pod' && e.targetRef.name
                  ? podsByName.get(`${e.targetRef.namespace ?? svc.namespace}/${e.targetRef.name}`)
                  : undefined;
              const pod = ref ?? podsByIp.get(address);
              const node = e.nodeName ? nodeLabels.get(e.nodeName) : undefined;
              const locality: Locality = pod?.locality ?? localityOf({}, node);
              if (!pod && e.zone && !locality.zone) locality.zone = e.zone;
              const ep: EndpointModel = {
                address,
                port: sp.port,
                servicePort: svcPort.port,
                labels: pod?.labels ?? {},
                namespace: svc.namespace,
                locality,
                weight: 1,
                healthy: e.conditions?.ready !== false,
              };
              if (pod) {
                ep.podName = pod.name;
                ep.serviceAccount = pod.serviceAccount;
              }
              push(index, key, svcPort.port, ep);
            }
          }
        }
      }
      continue;
    }
    if (!svc.selector) continue;
    const selected = byLabels.select(svc.namespace, svc.selector);
    for (const sp of svc.ports) {
      for (const pod of selected) {
        const port = resolveTargetPort(sp.targetPort, sp.port, pod);
        if (port !== undefined) push(index, key, sp.port, podEndpoint(pod, port, sp.port, memo));
      }
    }
  }
}

export function serviceEntryEndpoints(
  pairs: readonly { service: ServiceModel; entry: IstioConfig<'ServiceEntry'>; entries?: readonly IstioConfig<'ServiceEntry'>[] }[],
  instances: readonly WorkloadInstance[],
  index: EndpointIndex,
): void {
  // Every ServiceEntry repeating a (namespace, host) adds its endpoints under that one key, as istiod's
  // endpoint index (keyed by hostname and namespace) does.
  for (const { service, entry: e, entries } of pairs)
    for (const entry of entries ?? [e]) {
      const spec = entry.spec;
      const key = `${service.namespace}/${service.hostname}`;
      const specPorts = spec.ports ?? [];
      const dnsService = spec.resolution === 'DNS' || spec.resolution === 'DNS_ROUND_ROBIN';
      if (spec.workloadSelector) {
        // Pods and WorkloadEntries of the entry's namespace (services() in serviceentry/conversion.go).
        for (const wi of selectedBy(entry, dnsService, instances))
          for (const ep of serviceEntryInstanceEndpoints(wi, specPorts)) push(index, key, ep.servicePort, ep);
      } else if (spec.endpoints && spec.endpoints.length > 0) {
        // Inline endpoints are workload instances named `<entry>-<i>` (convertServiceEntryToInstances).
        spec.endpoints.forEach((we, i) => {
          const wi = workloadEntryInstance(we, `${entry.meta.name}-${i}`, service.namespace);
          for (const ep of serviceEntryInstanceEndpoints(wi, specPorts)) push(index, key, ep.servicePort, ep);
        });
      } else if (dnsService && !service.hostname.startsWith('*')) {
        for (const p of specPorts) {
          push(index, key, p.number, {
            address: service.hostname,
            port: p.targetPort ?? p.number,
            servicePort: p.number,
            labels: {},
            namespace: service.namespace,
            locality: { region: '', zone: '', subzone: '' },
            weight: 1,
            healthy: true,
          });
        }
      }
    }
}

/** WorkloadEntries a Kubernetes Service's selector matches add endpoints beside its EndpointSlices / pods. */
export function kubeWorkloadEntryEndpoints(
  services: readonly ServiceModel[],
  instances: readonly WorkloadInstance[],
  index: EndpointIndex,
): void {
  if (!instances.some((wi) => wi.kind === 'WorkloadEntry')) return;
  for (const svc of services)
    for (const ep of kubeServiceWorkloadEntryEndpoints(svc, instances)) push(index, `${svc.namespace}/${svc.hostname}`, ep.servicePort, ep);
}

/**
 * The endpoint index of `services` (Kubernetes) and `pairs` (ServiceEntry hosts), as the snapshot builds it: pods or
 * EndpointSlices, then WorkloadEntries a Service selects, then ServiceEntry endpoints, each list sorted. `rank` gives
 * each key its place in the index's order (the phase that first filled it, then the position `at` of its service
 * or pair in the whole snapshot), so a build over a subset of keys (../snapshotIncremental) can be merged back in
 * the order a build over every key gives.
 */
export function buildEndpointIndex(a: {
  services: readonly ServiceModel[];
  serviceAt: readonly number[];
  pairs: readonly { service: ServiceModel; entry: IstioConfig<'ServiceEntry'>; entries?: readonly IstioConfig<'ServiceEntry'>[] }[];
  pairAt: readonly number[];
  slices: readonly KubeObject<KubeEndpointSlice>[];
  pods: readonly PodModel[];
  nodeLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  instances: readonly WorkloadInstance[];
  memo?: PodEndpointMemo;
}): { index: EndpointIndex; rank: Map<string, number> } {
  const index: EndpointIndex = new Map();
  const rank = new Map<string, number>();
  const mark = (key: string, r: number) => {
    if (index.has(key) && !rank.has(key)) rank.set(key, r);
  };
  kubeEndpoints(a.services, a.slices, a.pods, a.nodeLabels, index, a.memo);
  a.services.forEach((s, i) => mark(`${s.namespace}/${s.hostname}`, a.serviceAt[i]!));
  kubeWorkloadEntryEndpoints(a.services, a.instances, index);
  a.services.forEach((s, i) => mark(`${s.namespace}/${s.hostname}`, RANK_PHASE + a.serviceAt[i]!));
  a.pairs.forEach((p, i) => {
    serviceEntryEndpoints([p], a.instances, index);
    mark(`${p.service.namespace}/${p.service.hostname}`, 2 * RANK_PHASE + a.pairAt[i]!);
  });
  sortEndpoints(index);
  return { index, rank };
}
const RANK_PHASE = 2 ** 31;

/** Sorts every endpoint list by address, then port, for deterministic output. */
export function sortEndpoints(index: EndpointIndex): void {
  for (const byPort of index.values())
    for (const list of byPort.values()) list.sort((a, b) => compareAddress(a.address, b.address) || a.port - b.port);
}

const V4 = /^\d+\.\d+\.\d+\.\d+$/;
function compareAddress(a: string, b: string): number {
  if (V4.test(a) && V4.test(b)) {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  }
  return byteCompare(a, b);
}
