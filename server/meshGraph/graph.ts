// The mesh overview graph, derived from config (never from telemetry, so it is never empty):
// namespaces ⊃ workloads ⊃ proxies/pods, services, and edges
//   proxy → service  `route`    one per VirtualService rule destination (label = VS + rule + match, % for splits)
//   proxy → service  `mirror`   mirrored traffic
//   proxy → service  `default`  the generated default route to a service no VirtualService owns (sidecars)
//   service → pod    `endpoint` the service's endpoints on that pod
// Pure: reads only the snapshot and options.
import type { IstioConfig, MeshSnapshot, PodModel, ProxyModel, ServiceModel, TranslateOptions } from '../model/mesh';
import { endpointKey } from '../model/mesh';
import { hostsMatch, resolveShortname } from '../model/host';
import { proxyIdOf } from '../model/proxyIdentity';
import type { ProxyKind } from '../model/proxyKinds';
import { buildProxyView, gatewaysForRouter } from '../translate/view';
import { canonicalService } from '../translate/ztunnel/workloads';
import { ruleTargets, type RuleTarget } from './routes';
import { nodeId } from './ids';
import type { AmbientOverview } from './ambientTypes';

/** `app`: an app node (graph type `app`) or an app box around its versions (`versionedApp`); see graphType.ts. */
export type MeshNodeKind = 'namespace' | 'service' | 'workload' | 'proxy' | 'pod' | 'app';
// `waypoint`: a waypoint proxy → a Service or workload it serves (./ambient, under the ambient profile).
export type MeshEdgeKind = 'route' | 'mirror' | 'default' | 'endpoint' | 'waypoint';
// `ambient`, `waypoint`, `no-waypoint`: added by ./ambient under the ambient profile.
export type BadgeKind = 'vs' | 'subsets' | 'fault' | 'mirror' | 'gateway' | 'external' | 'ambient' | 'waypoint' | 'no-waypoint';

export interface Badge {
  kind: BadgeKind;
  text: string;
  title?: string;
}

export interface MeshNode {
  id: string;
  kind: MeshNodeKind;
  label: string;
  namespace: string;
  /** Compound parent: the namespace (services, workloads) or the workload (proxies, pods). */
  parent?: string;
  badges: Badge[];
  /** proxy: `POD.NS`; the page it links to. */
  proxyId?: string;
  proxyType?: ProxyKind;
  /** service: its FQDN. */
  hostname?: string;
  ports?: number[];
  /** workload: Istio's canonical service and revision of its pods (kubelabels.CanonicalService), what Kiali's app graphs group by. */
  app?: string;
  version?: string;
  /** Graph types (graphType.ts): the proxies a workload or app node stands for. */
  proxyIds?: string[];
}

export interface MeshEdge {
  id: string;
  kind: MeshEdgeKind;
  source: string;
  target: string;
  label: string;
  /** Share of the rule's traffic (route edges), 0–100. */
  percent?: number;
  split?: boolean;
  subset?: string;
  /** `ns/name` of the VirtualService and the rule (`http[0]`). */
  virtualService?: string;
  rule?: string;
  match?: string;
  fault?: boolean;
}

export interface MeshGraphCounts {
  namespaces: number;
  services: number;
  workloads: number;
  proxies: number;
  pods: number;
  virtualServices: number;
  destinationRules: number;
  gateways: number;
  serviceEntries: number;
  routeEdges: number;
}

export interface MeshGraph {
  version: number;
  nodes: MeshNode[];
  edges: MeshEdge[];
  counts: MeshGraphCounts;
  /** The ambient view (./ambient): present when istiod runs with the ambient profile. */
  ambient?: AmbientOverview;
}

export { nodeId };

/** The workload a pod belongs to: its controller (Deployment, StatefulSet, …) or the bare pod. */
export const workloadOf = (p: PodModel): { kind: string; name: string } => p.owner ?? { kind: 'Pod', name: p.name };

const vsKey = (vs: IstioConfig) => `${vs.meta.namespace}/${vs.meta.name}`;

/**
 * Which VirtualServices and DestinationRules name each service host, indexed once per graph (a scan of
 * every VS and DR per service is quadratic in the mesh size). Same results, in snapshot order, as
 * filtering with hostsMatch / equality: exact hosts by map, wildcard hosts (and wildcard service hosts)
 * by a scan of the few wildcard entries.
 */
interface HostIndex {
  vsExact: Map<string, number[]>;
  vsWildcard: Array<{ host: string; index: number }>;
  drByHost: Map<string, IstioConfig<'DestinationRule'>[]>;
}

function hostIndex(snap: MeshSnapshot, suffix: string): HostIndex {
  const vsExact = new Map<string, number[]>();
  const vsWildcard: HostIndex['vsWildcard'] = [];
  snap.virtualServices.forEach((vs, index) => {
    for (const h of vs.spec.hosts ?? []) {
      // A bare `*` host (typical of gateway-bound VirtualServices) claims every host: not worth a badge on each.
      if (h === '*') continue;
      const r = resolveShortname(h, vs.meta.namespace, suffix);
      if (r.startsWith('*')) vsWildcard.push({ host: r, index });
      else {
        const list = vsExact.get(r) ?? [];
        if (list[list.length - 1] !== index) list.push(index);
        vsExact.set(r, list);
      }
    }
  });
  const drByHost = new Map<string, IstioConfig<'DestinationRule'>[]>();
  for (const dr of snap.destinationRules) {
    const h = resolveShortname(dr.spec.host ?? '', dr.meta.namespace, suffix);
    const list = drByHost.get(h);
    if (list) list.push(dr);
    else drByHost.set(h, [dr]);
  }
  return { vsExact, vsWildcard, drByHost };
}

function virtualServicesFor(hostname: string, snap: MeshSnapshot, idx: HostIndex): IstioConfig<'VirtualService'>[] {
  const hit = new Set<number>();
  if (hostname.startsWith('*')) {
    // A wildcard service host (ServiceEntry) may match any VS host: compare with all of them.
    for (const [h, list] of idx.vsExact) if (hostsMatch(h, hostname)) for (const i of list) hit.add(i);
  } else for (const i of idx.vsExact.get(hostname) ?? []) hit.add(i);
  for (const w of idx.vsWildcard) if (hostsMatch(w.host, hostname)) hit.add(w.index);
  return [...hit].sort((a, b) => a - b).flatMap((i) => snap.virtualServices[i] ?? []);
}
function serviceBadges(s: ServiceModel, snap: MeshSnapshot, idx: HostIndex): Badge[] {
  const badges: Badge[] = [];
  // Short names in VS hosts / DR host are relative to the object's namespace (ResolveShortnameToFQDN): hostIndex resolves them.
  const vss = virtualServicesFor(s.hostname, snap, idx);
  if (vss.length) badges.push({ kind: 'vs', text: `VS ${vss.length}`, title: `VirtualService: ${vss.map(vsKey).join(', ')}` });
  const subsets = (idx.drByHost.get(s.hostname) ?? []).flatMap((dr) => (dr.spec.subsets ?? []).map((x) => x.name));
  if (subsets.length)
    badges.push({ kind: 'subsets', text: `subsets ${subsets.length}`, title: `subsets: ${[...new Set(subsets)].join(', ')}` });
  const http = vss.flatMap((vs) => vs.spec.http ?? []);
  if (http.some((r) => r.fault)) badges.push({ kind: 'fault', text: 'fault', title: 'a VirtualService injects faults for this host' });
  if (http.some((r) => r.mirror || r.mirrors?.length))
    badges.push({ kind: 'mirror', text: 'mirror', title: 'a VirtualService mirrors traffic for this host' });
  if (s.registry === 'External') badges.push({ kind: 'external', text: 'ServiceEntry', title: `ServiceEntry ${s.namespace}/${s.name}` });
  return badges;
}

function routeLabel(t: RuleTarget): string {
  const who = `${t.vs.meta.name} ${t.rule}${t.name ? ` ${t.name}` : ''}`;
  const where = t.subset ? ` → ${t.subset}` : '';
  const pct = t.kind === 'mirror' ? ' (mirror)' : t.split ? ` ${t.percent}%` : '';
  return `${who}${where}${pct}`;
}

function proxyEdges(snap: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions, serviceIds: Map<string, string>): MeshEdge[] {
  const view = buildProxyView(snap, proxy, options);
  const from = nodeId.proxy(proxy.id);
  const hostnames = view.services.map((s) => s.hostname);
  const gws = proxy.type === 'router' ? gatewaysForRouter(snap, proxy).map((g) => `${g.meta.namespace}/${g.meta.name}`) : [];
  const targets = ruleTargets(proxy, view.virtualServices, hostnames, gws);
  const edges: MeshEdge[] = [];
  const seen = new Set<string>();
  const owned = new Set<string>();
  for (const t of targets) {
    const svc = view.service(t.host, t.vs.meta.namespace);
    const target = svc ? serviceIds.get(`${svc.namespace}/${svc.hostname}`) : undefined;
    if (!target) continue; // a destination outside the registry: nothing to draw it to
    const id = `${t.kind}:${from}->${target}:${vsKey(t.vs)}:${t.rule}:${t.subset ?? ''}:${t.port ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({
      id,
      kind: t.kind,
      source: from,
      target,
      label: routeLabel(t),
      percent: t.percent,
      split: t.split,
      ...(t.subset ? { subset: t.subset } : {}),
      virtualService: vsKey(t.vs),
      rule: t.rule,
      match: t.match,
      ...(t.fault ? { fault: true } : {}),
    });
    for (const h of t.vs.spec.hosts ?? []) owned.add(h);
  }
  if (proxy.type === 'sidecar') {
    // Services no applied VirtualService claims get istiod's generated `default` route.
    // Indexed: exact hosts by set, wildcard hosts (or a wildcard service host) by hostsMatch, as before.
    const exact = new Set<string>();
    const wild: string[] = [];
    for (const vs of view.virtualServices)
      for (const x of vs.spec.hosts ?? []) {
        if (x.startsWith('*')) wild.push(x);
        else exact.add(x);
      }
    const claimed = (h: string) =>
      h.startsWith('*') ? [...exact, ...wild].some((x) => hostsMatch(x, h)) : exact.has(h) || wild.some((x) => hostsMatch(x, h));
    for (const s of view.services) {
      if (claimed(s.hostname)) continue;
      const target = serviceIds.get(`${s.namespace}/${s.hostname}`);
      if (!target) continue;
      edges.push({ id: `default:${from}->${target}`, kind: 'default', source: from, target, label: 'default' });
    }
  }
  return edges;
}

/** The overview graph of a snapshot. Deterministic: node and edge order follow the snapshot. */
export function buildMeshGraph(snap: MeshSnapshot, options: TranslateOptions): MeshGraph {
  const nodes: MeshNode[] = [];
  const usedNs = new Set<string>();
  const serviceIds = new Map<string, string>();
  const hosts = hostIndex(snap, options.domainSuffix);

  for (const s of snap.services) {
    const id = nodeId.service(s);
    if (serviceIds.has(`${s.namespace}/${s.hostname}`)) continue;
    serviceIds.set(`${s.namespace}/${s.hostname}`, id);
    usedNs.add(s.namespace);
    nodes.push({
      id,
      kind: 'service',
      label: s.registry === 'External' ? s.hostname : s.name,
      namespace: s.namespace,
      parent: nodeId.namespace(s.namespace),
      badges: serviceBadges(s, snap, hosts),
      hostname: s.hostname,
      ports: s.ports.map((p) => p.port),
    });
  }

  const workloads = new Map<string, MeshNode>();
  const podNodes: MeshNode[] = [];
  const podIds = new Map<string, string>();
  let proxies = 0;
  for (const p of snap.pods) {
    const w = workloadOf(p);
    const wid = nodeId.workload(p.namespace, w.kind, w.name);
    usedNs.add(p.namespace);
    if (!workloads.has(wid)) {
      const [app, version] = canonicalService(p.labels, w.name);
      workloads.set(wid, {
        id: wid,
        kind: 'workload',
        label: w.name,
        namespace: p.namespace,
        parent: nodeId.namespace(p.namespace),
        badges: [],
        app,
        version,
      });
    }
    const proxy = snap.proxiesById.get(proxyIdOf(p.name, p.namespace));
    if (proxy) {
      proxies++;
      const badges: Badge[] = [];
      if (proxy.type === 'router') {
        const gws = gatewaysForRouter(snap, proxy).map((g) => `${g.meta.namespace}/${g.meta.name}`);
        badges.push({
          kind: 'gateway',
          text: 'gateway',
          title: gws.length ? `Gateway: ${gws.join(', ')}` : 'no Gateway selects this proxy',
        });
      }
      const id = nodeId.proxy(proxy.id);
      podIds.set(`${p.namespace}/${p.name}`, id);
      podNodes.push({
        id,
        kind: 'proxy',
        label: p.name,
        namespace: p.namespace,
        parent: wid,
        badges,
        proxyId: proxy.id,
        proxyType: proxy.type,
      });
    } else {
      const id = nodeId.pod(p.namespace, p.name);
      podIds.set(`${p.namespace}/${p.name}`, id);
      podNodes.push({ id, kind: 'pod', label: p.name, namespace: p.namespace, parent: wid, badges: [] });
    }
  }

  const nsNodes: MeshNode[] = [...snap.namespaces.keys()]
    .filter((ns) => usedNs.has(ns))
    .map((ns) => ({ id: nodeId.namespace(ns), kind: 'namespace', label: ns, namespace: ns, badges: [] }));
  nodes.unshift(...nsNodes);
  nodes.push(...workloads.values(), ...podNodes);

  const edges: MeshEdge[] = [];
  for (const proxy of snap.proxies) edges.push(...proxyEdges(snap, proxy, options, serviceIds));
  for (const s of snap.services) {
    const sid = serviceIds.get(`${s.namespace}/${s.hostname}`);
    const byPort = snap.endpoints.get(endpointKey(s));
    if (!sid || !byPort) continue;
    const pods = new Set<string>();
    for (const eps of byPort.values()) for (const e of eps) if (e.podName) pods.add(`${e.namespace}/${e.podName}`);
    for (const key of pods) {
      const target = podIds.get(key);
      if (target) edges.push({ id: `endpoint:${sid}->${target}`, kind: 'endpoint', source: sid, target, label: '' });
    }
  }

  return {
    version: snap.version,
    nodes,
    edges,
    counts: {
      namespaces: nsNodes.length,
      services: serviceIds.size,
      workloads: workloads.size,
      proxies,
      pods: podNodes.length - proxies,
      virtualServices: snap.virtualServices.length,
      destinationRules: snap.destinationRules.length,
      gateways: snap.gateways.length,
      serviceEntries: snap.serviceEntries.length,
      routeEdges: edges.filter((e) => e.kind === 'route').length,
    },
  };
}
