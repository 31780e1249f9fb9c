// Test helpers: hand-build MeshSnapshots with sensible defaults so translator tests stay short.
// Not used by the product. Pure functions, no module state: creation order is explicit (`created`)
// or, when omitted, synthesized from input order by buildSnapshot.
import { defaultMeshState } from '../../model/meshOptions';
import type { IstioKind, IstioSpecs } from '../../model/istio';
import {
  DEFAULT_OPTIONS,
  endpointKey,
  type EndpointModel,
  type IstioConfig,
  type Locality,
  type MeshSnapshot,
  type NamespaceModel,
  type PodModel,
  type Protocol,
  type Resolution,
  type ServiceModel,
  type ServicePort,
} from '../../model/mesh';
import { proxyOf } from '../../model/proxyIdentity';
import { byCreation, byServiceCreation } from '../../model/snapshot';

/** The ProxyModel for a pod (id `POD.NS`): the product's rule. */
export { proxyOf };

const NO_LOCALITY: Locality = { region: '', zone: '', subzone: '' };
const EPOCH = Date.UTC(2024, 0, 1);
/** Synthetic creation time `i` seconds after 2024-01-01, for input-ordered objects. */
export const timeAt = (i: number): string => new Date(EPOCH + i * 1000).toISOString().replace('.000Z', 'Z');

/** `port(9080)`, `port(9080, 'http')`, `port(80, 'http', 'HTTP', 8080)`. Protocol defaults from the name prefix. */
export function port(number: number, name = `http-${number}`, protocol?: Protocol, targetPort?: number | string): ServicePort {
  const p: ServicePort = { name, port: number, protocol: protocol ?? protocolFromName(name) };
  if (targetPort !== undefined) p.targetPort = targetPort;
  return p;
}

function protocolFromName(name: string): Protocol {
  const prefix = name.split('-')[0]?.toLowerCase() ?? '';
  const table: Record<string, Protocol> = {
    http: 'HTTP',
    http2: 'HTTP2',
    https: 'HTTPS',
    grpc: 'GRPC',
    'grpc-web': 'GRPC-Web',
    tcp: 'TCP',
    tls: 'TLS',
    mongo: 'Mongo',
    mysql: 'MySQL',
    redis: 'Redis',
    udp: 'UDP',
  };
  return table[prefix] ?? 'Unsupported';
}

export interface ServiceOpts {
  ports?: ServicePort[];
  address?: string;
  selector?: Record<string, string> | null;
  exportTo?: string[];
  resolution?: Resolution;
  labels?: Record<string, string>;
  created?: string;
  domainSuffix?: string;
}

/** A deterministic cluster IP in 10.96.0.0/16 derived from `ns/name` (FNV-1a), so services get distinct VIPs. */
export function vipFor(namespace: string, name: string): string {
  let h = 0x811c9dc5;
  for (const ch of `${namespace}/${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `10.96.${(h >>> 8) & 0xff}.${h & 0xff || 1}`;
}

/** A Kubernetes Service `name.ns.svc.cluster.local`, selector `app: name`, one port 9080 by default. */
export function service(name: string, namespace = 'default', o: ServiceOpts = {}): ServiceModel {
  const hostname = `${name}.${namespace}.svc.${o.domainSuffix ?? DEFAULT_OPTIONS.domainSuffix}`;
  const address = o.address ?? (o.resolution === 'Passthrough' ? '0.0.0.0' : vipFor(namespace, name));
  const s: ServiceModel = {
    hostname,
    namespace,
    name,
    registry: 'Kubernetes',
    address,
    addresses: [address],
    ports: o.ports ?? [port(9080, 'http')],
    resolution: o.resolution ?? 'ClientSideLB',
    meshExternal: false,
    exportTo: o.exportTo ?? [],
    labels: o.labels ?? { app: name },
    creationTimestamp: o.created ?? '',
    ref: { kind: 'Service', group: '', version: 'v1', namespace, name },
  };
  if (o.selector !== null) s.selector = o.selector ?? { app: name };
  return s;
}

export interface ExternalOpts {
  ports?: ServicePort[];
  address?: string;
  resolution?: Resolution;
  exportTo?: string[];
  meshExternal?: boolean;
  created?: string;
  name?: string;
}

/** A ServiceEntry-derived service for one host (registry External). */
export function external(host: string, namespace = 'default', o: ExternalOpts = {}): ServiceModel {
  const address = o.address ?? '0.0.0.0';
  const name = o.name ?? host;
  return {
    hostname: host,
    namespace,
    name,
    registry: 'External',
    address,
    addresses: [address],
    ports: o.ports ?? [port(443, 'tls', 'TLS')],
    resolution: o.resolution ?? 'DNS',
    meshExternal: o.meshExternal ?? true,
    exportTo: o.exportTo ?? [],
    labels: {},
    creationTimestamp: o.created ?? '',
    ref: { kind: 'ServiceEntry', group: 'networking.istio.io', version: 'v1', namespace, name },
  };
}

export interface PodOpts {
  labels?: Record<string, string>;
  proxy?: PodModel['proxy'];
  ready?: boolean;
  namedPorts?: Record<string, number>;
  owner?: { kind: string; name: string };
  locality?: Locality;
  serviceAccount?: string;
  created?: string;
}

export function pod(name: string, namespace: string, ip: string, o: PodOpts = {}): PodModel {
  const p: PodModel = {
    name,
    namespace,
    labels: o.labels ?? {},
    annotations: {},
    ip,
    ready: o.ready ?? true,
    serviceAccount: o.serviceAccount ?? 'default',
    namedPorts: o.namedPorts ?? {},
    containerPorts: Object.values(o.namedPorts ?? {}),
    proxy: o.proxy ?? 'sidecar',
    locality: o.locality ?? NO_LOCALITY,
    creationTimestamp: o.created ?? '',
    origin: { source: 'file', file: 'test.yaml' },
  };
  if (o.owner) p.owner = o.owner;
  return p;
}

/** An Istio config object; `created` orders it (else input order in buildSnapshot). */
export function istio<K extends IstioKind>(
  kind: K,
  name: string,
  namespace: string,
  spec: IstioSpecs[K],
  o: { created?: string; doc?: number } = {},
): IstioConfig<K> {
  return {
    kind,
    apiVersion: 'networking.istio.io/v1',
    meta: { name, namespace, labels: {}, annotations: {}, creationTimestamp: o.created ?? '' },
    spec,
    origin: { source: 'file', file: 'test.yaml', doc: o.doc ?? 0 },
  };
}

const subsetOf = (sel: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>) =>
  Object.entries(sel).every(([k, v]) => labels[k] === v);

/** Endpoints of a Kubernetes service from the pods its selector selects (as EndpointSlices would list them). */
export function endpointsFromPods(svc: ServiceModel, pods: readonly PodModel[]): Map<number, EndpointModel[]> {
  const out = new Map<number, EndpointModel[]>();
  const sel = svc.selector;
  for (const sp of svc.ports) {
    const list: EndpointModel[] = [];
    if (sel && Object.keys(sel).length > 0) {
      for (const p of pods) {
        if (p.namespace !== svc.namespace || !subsetOf(sel, p.labels)) continue;
        const tp = sp.targetPort;
        const target = tp === undefined ? sp.port : typeof tp === 'number' ? tp : p.namedPorts[tp];
        if (target === undefined) continue;
        list.push(
          endpoint(p.ip, target, sp.port, {
            labels: p.labels,
            namespace: p.namespace,
            podName: p.name,
            healthy: p.ready,
            locality: p.locality,
          }),
        );
      }
    }
    out.set(sp.port, list);
  }
  return out;
}

export function endpoint(address: string, port: number, servicePort: number, o: Partial<EndpointModel> = {}): EndpointModel {
  return {
    address,
    port,
    servicePort,
    labels: o.labels ?? {},
    namespace: o.namespace ?? 'default',
    locality: o.locality ?? NO_LOCALITY,
    weight: o.weight ?? 1,
    healthy: o.healthy ?? true,
    ...(o.podName !== undefined ? { podName: o.podName } : {}),
    ...(o.serviceAccount !== undefined ? { serviceAccount: o.serviceAccount } : {}),
  };
}

export interface SnapshotInput {
  services?: ServiceModel[];
  pods?: PodModel[];
  /** Explicit endpoints by `endpointKey(svc)`; Kubernetes services without an entry get endpointsFromPods. */
  endpoints?: Map<string, Map<number, EndpointModel[]>>;
  configs?: IstioConfig[];
}

/** Builds an indexed MeshSnapshot like the store would, ordering everything by creation (Istio's config order). */
export function buildSnapshot(input: SnapshotInput): MeshSnapshot {
  // Objects without a creation time are stamped in input order, then ordered like the store orders them.
  const services = (input.services ?? [])
    .map((s, i) => (s.creationTimestamp ? s : { ...s, creationTimestamp: timeAt(i) }))
    .sort(byServiceCreation);
  const pods = input.pods ?? [];
  const servicesByHost = new Map<string, ServiceModel[]>();
  for (const s of services) servicesByHost.set(s.hostname, [...(servicesByHost.get(s.hostname) ?? []), s]);
  const endpoints = new Map<string, ReadonlyMap<number, readonly EndpointModel[]>>();
  for (const s of services) {
    const key = endpointKey(s);
    const given = input.endpoints?.get(key);
    endpoints.set(key, given ?? (s.registry === 'Kubernetes' ? endpointsFromPods(s, pods) : new Map()));
  }
  const configs = (input.configs ?? []).map((c, i) =>
    c.meta.creationTimestamp ? c : { ...c, meta: { ...c.meta, creationTimestamp: timeAt(i) } },
  );
  const sorted = configs.sort(byCreation);
  const ofKind = <K extends IstioKind>(k: K) => sorted.filter((c): c is IstioConfig<K> => c.kind === k);
  const proxies = pods.filter((p) => p.proxy !== 'none').map(proxyOf);
  const namespaces = new Map<string, NamespaceModel>();
  for (const ns of [...services.map((s) => s.namespace), ...pods.map((p) => p.namespace), ...sorted.map((c) => c.meta.namespace)])
    namespaces.set(ns, { name: ns, labels: {}, declared: false });
  return {
    version: 1,
    namespaces,
    services,
    servicesByHost,
    endpoints,
    pods,
    proxies,
    proxiesById: new Map(proxies.map((p) => [p.id, p])),
    virtualServices: ofKind('VirtualService'),
    destinationRules: ofKind('DestinationRule'),
    gateways: ofKind('Gateway'),
    serviceEntries: ofKind('ServiceEntry'),
    sidecars: ofKind('Sidecar'),
    workloadEntries: ofKind('WorkloadEntry'),
    authorizationPolicies: ofKind('AuthorizationPolicy'),
    peerAuthentications: ofKind('PeerAuthentication'),
    errors: [],
    mesh: defaultMeshState(DEFAULT_OPTIONS),
  };
}
