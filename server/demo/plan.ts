// What the demo data plane should run for a snapshot (pure: snapshot in, plan out):
// - a backend (a real gRPC echo server) for every pod whose IP is a loopback address, on its container ports;
// - a client (a @grpc/grpc-js-xds channel, proxyless, with the pod's node id) per target a loopback pod lists
//   in its `demo.meshscope.io/calls` annotation (`host:port,host:port`);
// - for every target host, what the VirtualService configures for plain calls (the first route without a
//   match) and for `x-user: tester` calls, so the counters can be compared with it.
import type { Destination, HTTPRoute } from '../model/istio';
import type { IstioConfig, MeshSnapshot, TranslateOptions } from '../model/mesh';
import { resolveShortname } from '../model/host';
import { byteCompare } from '../lib/compare';
import type { ExporterTarget } from './exporter';
import { type Peer, peerOf, workloadOf } from './istioStats';

export const CALLS_ANNOTATION = 'demo.meshscope.io/calls';
/** The header the demo's "tester" calls carry (the demo mesh routes `x-user: tester` to ratings v2). */
export const TESTER_HEADER = { name: 'x-user', value: 'tester' } as const;
const MAX_TARGETS_PER_POD = 8;
const MAX_BACKENDS = 64;
const MAX_CLIENTS = 32;

export interface BackendPlan {
  /** `POD.NAMESPACE` */
  id: string;
  pod: string;
  namespace: string;
  ip: string;
  ports: number[];
  app: string;
  version: string;
}

export interface ClientPlan {
  /** `POD.NAMESPACE→host:port` */
  key: string;
  /** The source pod's id (`POD.NAMESPACE`). */
  source: string;
  /** The source workload (its Deployment, else its `app` label, else the pod). */
  workload: string;
  namespace: string;
  host: string;
  port: number;
  /** The sidecar node id istiod would expect from this pod (`sidecar~IP~POD.NS~NS.svc.cluster.local`). */
  nodeId: string;
  locality: { region: string; zone: string; sub_zone: string };
}

export interface ConfiguredDestination {
  cluster: string;
  subset: string;
  percent: number;
}

export interface ConfiguredFault {
  delayPercent?: number;
  delay?: string;
  abortPercent?: number;
  abortStatus?: number;
}

export interface ServicePlan {
  host: string;
  port: number;
  /** The VirtualService that routes this host for its callers (first by creation time, then name). */
  virtualService?: { namespace: string; name: string; spec: unknown };
  /** Plain calls: the first http route without a match (Istio's catch-all). Empty: the whole service. */
  destinations: ConfiguredDestination[];
  fault?: ConfiguredFault;
  /** Calls with `x-user: tester`: the first route whose match takes them, when it is a different route. */
  tester?: ConfiguredDestination[];
  /** DestinationRule subsets of the host, to name the subset a pod answering a call belongs to. */
  subsets: { name: string; labels: Record<string, string> }[];
  /**
   * Which routes carry a delay / an abort. grpc-js-xds 1.14.1 compares a new resource with the cached one
   * by the cached one's keys only (xds-resource-type.js deepEqual), so a route that gains a fault where it
   * had none (a key the old route lacks) is taken as unchanged and never applied. The data plane opens a
   * new channel for a target when this changes (dataPlane.ts), so the demo shows the fault as gRPC would
   * apply it once the client does see the update.
   */
  faultShape: string;
}

export interface DemoPlan {
  backends: BackendPlan[];
  clients: ClientPlan[];
  services: ServicePlan[];
  /** `POD.NAMESPACE` → labels, for the subset of an answering pod. */
  podLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Annotation values that could not be used, located by pod. */
  problems: string[];
  /** `POD.NAMESPACE` → what metadata exchange tells a peer sidecar about the pod (loopback pods). */
  peers: ReadonlyMap<string, Peer>;
  /** The pods whose sidecar metrics (`IP:15020/stats/prometheus`) the demo serves. */
  exporters: ExporterTarget[];
}

export const isLoopback = (ip: string): boolean => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);

const cluster = (port: number, subset: string, host: string) => `outbound|${port}|${subset}|${host}`;

function parseTarget(raw: string, ns: string, o: TranslateOptions): { host: string; port: number } | undefined {
  const m = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(raw.trim());
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: resolveShortname(m[1]!, ns, o.domainSuffix), port };
}

const byAge = (a: IstioConfig, b: IstioConfig) =>
  byteCompare(a.meta.creationTimestamp ?? '', b.meta.creationTimestamp ?? '') ||
  byteCompare(a.meta.namespace, b.meta.namespace) ||
  byteCompare(a.meta.name, b.meta.name);

/** The mesh-bound VirtualService for `host` (no `gateways`, or `mesh` among them), oldest first as istiod orders them. */
function virtualServiceFor(snap: MeshSnapshot, host: string, o: TranslateOptions): IstioConfig<'VirtualService'> | undefined {
  return [...snap.virtualServices].sort(byAge).find((vs) => {
    const gws = vs.spec.gateways ?? [];
    if (gws.length > 0 && !gws.includes('mesh')) return false;
    return (vs.spec.hosts ?? []).some((h) => resolveShortname(h, vs.meta.namespace, o.domainSuffix) === host);
  });
}

function destinationsOf(
  route: HTTPRoute | undefined,
  host: string,
  port: number,
  ns: string,
  o: TranslateOptions,
): ConfiguredDestination[] {
  const ds: Destination[] = (route?.route ?? []).map((r) => r.destination).filter((d): d is Destination => Boolean(d));
  const weights = (route?.route ?? []).map((r) => r.weight ?? (ds.length === 1 ? 100 : 0));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const out: ConfiguredDestination[] = [];
  ds.forEach((d, i) => {
    const h = resolveShortname(d.host, ns, o.domainSuffix);
    const subset = d.subset ?? '';
    out.push({ cluster: cluster(d.port?.number ?? (h === host ? port : 0), subset, h), subset, percent: (100 * weights[i]!) / total });
  });
  return out;
}

const isTesterMatch = (route: HTTPRoute): boolean =>
  (route.match ?? []).some((m) => {
    const hs = Object.entries(m.headers ?? {});
    return hs.length > 0 && hs.every(([k, v]) => k === TESTER_HEADER.name && (v as { exact?: string }).exact === TESTER_HEADER.value);
  });

function servicePlan(snap: MeshSnapshot, host: string, port: number, o: TranslateOptions): ServicePlan {
  const vs = virtualServiceFor(snap, host, o);
  const dr = [...snap.destinationRules].sort(byAge).find((d) => resolveShortname(d.spec.host, d.meta.namespace, o.domainSuffix) === host);
  const subsets = (dr?.spec.subsets ?? []).map((s) => ({ name: s.name, labels: { ...(s.labels ?? {}) } }));
  const whole = [{ cluster: cluster(port, '', host), subset: '', percent: 100 }];
  if (!vs) return { host, port, destinations: whole, subsets, faultShape: '' };
  const http = vs.spec.http ?? [];
  const plain = http.find((r) => (r.match ?? []).length === 0);
  const testerRoute = http.find((r) => (r.match ?? []).length === 0 || isTesterMatch(r));
  const plan: ServicePlan = {
    host,
    port,
    virtualService: { namespace: vs.meta.namespace, name: vs.meta.name, spec: vs.spec },
    destinations: plain ? destinationsOf(plain, host, port, vs.meta.namespace, o) : [],
    subsets,
    faultShape: http.map((r) => `${r.fault?.delay ? 'd' : ''}${r.fault?.abort ? 'a' : ''}`).join(','),
  };
  const f = plain?.fault;
  if (f) {
    plan.fault = {};
    if (f.delay) {
      plan.fault.delayPercent = f.delay.percentage?.value ?? 100;
      if (f.delay.fixedDelay) plan.fault.delay = f.delay.fixedDelay;
    }
    if (f.abort) {
      plan.fault.abortPercent = f.abort.percentage?.value ?? 100;
      if (f.abort.httpStatus !== undefined) plan.fault.abortStatus = f.abort.httpStatus;
    }
  }
  if (testerRoute && testerRoute !== plain) plan.tester = destinationsOf(testerRoute, host, port, vs.meta.namespace, o);
  return plan;
}

export { workloadOf };

/** The demo data plane's plan for `snap`: loopback pods only, bounded counts. */
export function planDemo(snap: MeshSnapshot, o: TranslateOptions): DemoPlan {
  const problems: string[] = [];
  const pods = snap.pods.filter((p) => isLoopback(p.ip) && p.proxy !== 'router' && p.ready);
  const backends: BackendPlan[] = pods
    .filter((p) => p.containerPorts.length > 0)
    .slice(0, MAX_BACKENDS)
    .map((p) => ({
      id: `${p.name}.${p.namespace}`,
      pod: p.name,
      namespace: p.namespace,
      ip: p.ip,
      ports: [...p.containerPorts].sort((a, b) => a - b),
      app: p.labels.app ?? '',
      version: p.labels.version ?? '',
    }));
  const clients: ClientPlan[] = [];
  const targets = new Map<string, { host: string; port: number }>();
  for (const p of pods) {
    const raw = p.annotations[CALLS_ANNOTATION];
    if (!raw) continue;
    for (const entry of raw
      .split(',')
      .filter((s) => s.trim())
      .slice(0, MAX_TARGETS_PER_POD)) {
      const t = parseTarget(entry, p.namespace, o);
      if (!t) {
        problems.push(`pod ${p.namespace}/${p.name}: annotation ${CALLS_ANNOTATION}: "${entry.trim()}" is not host:port`);
        continue;
      }
      if (clients.length >= MAX_CLIENTS) break;
      targets.set(`${t.host}:${t.port}`, t);
      clients.push({
        key: `${p.name}.${p.namespace}→${t.host}:${t.port}`,
        source: `${p.name}.${p.namespace}`,
        workload: workloadOf(p),
        namespace: p.namespace,
        host: t.host,
        port: t.port,
        nodeId: `sidecar~${p.ip}~${p.name}.${p.namespace}~${p.namespace}.svc.${o.domainSuffix}`,
        locality: { region: p.locality.region, zone: p.locality.zone, sub_zone: p.locality.subzone },
      });
    }
  }
  const services = [...targets.values()]
    .sort((a, b) => byteCompare(a.host, b.host) || a.port - b.port)
    .map((t) => servicePlan(snap, t.host, t.port, o));
  const podLabels = new Map(snap.pods.map((p) => [`${p.name}.${p.namespace}`, p.labels]));
  const peers = new Map(pods.map((p) => [`${p.name}.${p.namespace}`, peerOf(p, o)]));
  const exporters = pods
    .slice(0, MAX_BACKENDS)
    .map((p) => ({ id: `${p.name}.${p.namespace}`, pod: p.name, namespace: p.namespace, ip: p.ip }));
  return { backends, clients, services, podLabels, problems, peers, exporters };
}

/** The DestinationRule subset a pod belongs to for `svc` (first whose labels it carries), or "". */
export function subsetOfPod(svc: ServicePlan, labels: Readonly<Record<string, string>> | undefined): string {
  if (!labels) return '';
  return svc.subsets.find((s) => Object.entries(s.labels).every(([k, v]) => labels[k] === v))?.name ?? '';
}

/**
 * Every registry service whose mesh VirtualService splits its catch-all route by weight (two or more
 * destinations): what the /demo page offers on a cluster without the demo data plane (pick a service, move
 * its weights through the gated apply, watch Prometheus follow). The service's first port; by host.
 */
export function weightedServicePlans(snap: MeshSnapshot, o: TranslateOptions): ServicePlan[] {
  const seen = new Set<string>();
  const out: ServicePlan[] = [];
  for (const s of [...snap.services].sort((a, b) => byteCompare(a.hostname, b.hostname))) {
    const port = s.ports[0]?.port;
    if (s.registry === 'External' || port === undefined || seen.has(s.hostname)) continue;
    seen.add(s.hostname);
    const plan = servicePlan(snap, s.hostname, port, o);
    if (plan.virtualService && plan.destinations.length > 1) out.push(plan);
  }
  return out;
}
