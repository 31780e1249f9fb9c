// Kiali's graph types over the config-derived overview graph (graph.ts draws one node per proxy and one
// edge per proxy, rule and subset). What a node is in each type follows Kiali's graph.Id (graph/types.go):
//   workload      one node per workload (`wl:` ids, as in the per-proxy graph), services as nodes
//   versionedApp  one node per workload, named by its version and boxed by app (an `app` compound node when
//                 the app has more than one workload), services as nodes — the overview's default
//   app           one node per app (Istio's canonical service: kubelabels.CanonicalService), services as nodes
//   service       services only (telemetry.ReduceToServiceGraph): service → service through the workloads
//                 behind the first; workloads no service selects stay as root nodes (gateways, clients)
//   proxy         the per-proxy graph unchanged
// Edges with the same kind and ends merge into one edge: the pods of one workload and identical rules
// become one edge carrying the split (`splits`, one entry per subset, the configured share and, when
// Prometheus is connected, the observed one) and the configured rules it stands for (`routes`).
// Pure and client-safe (types and ids only).
import type { MeshEdge, MeshGraph, MeshNode } from './graph';

export const GRAPH_TYPES = ['versionedApp', 'app', 'workload', 'service', 'proxy'] as const;
export type GraphType = (typeof GRAPH_TYPES)[number];
/** The overview's default (Kiali's UI default). `GET /api/graph` without `graphType` stays per-proxy. */
export const DEFAULT_GRAPH_TYPE: GraphType = 'versionedApp';

export const isGraphType = (v: unknown): v is GraphType => typeof v === 'string' && (GRAPH_TYPES as readonly string[]).includes(v);

/** Observed traffic on an edge (#23 §1: `/api/graph?traffic=1`). */
export interface Observed {
  requestsPerSecond: number;
  /** Kiali's edge-percentage rule: this edge's share of its source node's outgoing requests. */
  percent: number;
  errorPercent: number;
}

/** One configured rule destination a merged edge stands for. */
export interface RouteRef {
  virtualService?: string;
  rule?: string;
  match?: string;
  subset?: string;
  percent?: number;
  split?: boolean;
  fault?: boolean;
}

/** One subset of a merged edge: the configured share (when a single weighted rule sets it) and the observed one. */
export interface SplitShare {
  subset?: string;
  configuredPercent?: number;
  /** percent: this subset's share of the edge's observed requests (comparable with configuredPercent). */
  observed?: Observed;
}

/** Fields a merged edge adds to MeshEdge. */
export interface MergedEdgeFields {
  routes?: RouteRef[];
  splits?: SplitShare[];
  /** How many per-proxy edges this edge stands for. */
  merged?: number;
  observed?: Observed;
  unconfigured?: boolean;
}

export type TypedEdge = MeshEdge & MergedEdgeFields;

export interface TypedGraph extends Omit<MeshGraph, 'edges'> {
  graphType: GraphType;
  edges: TypedEdge[];
}

export const appNodeId = (ns: string, app: string) => `app:${ns}/${app}`;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The node every workload maps to, and the nodes of the typed graph (namespaces, services, apps, workloads). */
function typedNodes(g: MeshGraph, type: Exclude<GraphType, 'proxy'>) {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const workloads = g.nodes.filter((n) => n.kind === 'workload');
  const members = new Map<string, MeshNode[]>(); // workload id → its proxies and pods
  for (const n of g.nodes)
    if ((n.kind === 'proxy' || n.kind === 'pod') && n.parent && byId.get(n.parent)?.kind === 'workload') {
      const list = members.get(n.parent) ?? [];
      list.push(n);
      members.set(n.parent, list);
    }
  const appOf = (w: MeshNode) => w.app ?? w.label;
  const appSize = new Map<string, number>();
  for (const w of workloads) appSize.set(appNodeId(w.namespace, appOf(w)), (appSize.get(appNodeId(w.namespace, appOf(w))) ?? 0) + 1);

  const mapped = new Map<string, string>(); // workload id → drawn node
  const out = new Map<string, MeshNode>();
  const add = (n: MeshNode) => {
    if (!out.has(n.id)) out.set(n.id, n);
    return out.get(n.id)!;
  };
  for (const n of g.nodes) if (n.kind === 'namespace' || n.kind === 'service') add({ ...n });

  // Badges and the proxy page link carried over from a workload's proxies.
  const absorb = (target: MeshNode, w: MeshNode) => {
    const pods = members.get(w.id) ?? [];
    for (const b of [...w.badges, ...pods.flatMap((p) => p.badges)])
      if (!target.badges.some((x) => x.kind === b.kind && x.text === b.text)) target.badges.push(b);
    const proxies = pods.filter((p) => p.proxyId);
    if (!target.proxyType && proxies[0]?.proxyType) target.proxyType = proxies[0].proxyType;
    return proxies;
  };
  const proxyCount = new Map<string, { ids: string[]; workloads: number }>();
  const linkProxies = (target: MeshNode, proxies: MeshNode[]) => {
    const c = proxyCount.get(target.id) ?? { ids: [], workloads: 0 };
    c.ids.push(...proxies.map((p) => p.proxyId!));
    c.workloads++;
    proxyCount.set(target.id, c);
  };

  for (const w of workloads) {
    const ns = w.parent;
    const app = appOf(w);
    let target: MeshNode;
    if (type === 'app') {
      target = add({
        id: appNodeId(w.namespace, app),
        kind: 'app',
        label: app,
        namespace: w.namespace,
        badges: [],
        app,
        ...(ns ? { parent: ns } : {}),
      });
    } else if (type === 'versionedApp') {
      const boxed = (appSize.get(appNodeId(w.namespace, app)) ?? 0) > 1;
      if (boxed)
        add({
          id: appNodeId(w.namespace, app),
          kind: 'app',
          label: app,
          namespace: w.namespace,
          badges: [],
          app,
          ...(ns ? { parent: ns } : {}),
        });
      const version = w.version ?? 'latest';
      target = add({
        ...w,
        badges: [],
        // `latest` is Istio's placeholder for a pod without a version label: nothing to name.
        label: boxed ? version : version === 'latest' ? app : `${app} ${version}`,
        ...(boxed ? { parent: appNodeId(w.namespace, app) } : {}),
      });
    } else target = add({ ...w, badges: [] });
    linkProxies(target, absorb(target, w));
    mapped.set(w.id, target.id);
  }
  // Versions of one app with the same version label: name them by workload instead.
  if (type === 'versionedApp') {
    const seen = new Map<string, MeshNode[]>();
    for (const n of out.values())
      if (n.kind === 'workload' && n.parent?.startsWith('app:'))
        seen.set(`${n.parent}|${n.label}`, [...(seen.get(`${n.parent}|${n.label}`) ?? []), n]);
    for (const same of seen.values()) if (same.length > 1) for (const n of same) n.label = byId.get(n.id)?.label ?? n.label;
  }
  // A node standing for exactly one proxy opens it on click; every node names the proxies it stands for.
  for (const [id, c] of proxyCount) {
    const n = out.get(id)!;
    if (c.ids.length === 1) n.proxyId = c.ids[0];
    else delete n.proxyId;
    if (c.ids.length) n.proxyIds = c.ids;
  }
  // Any per-proxy node id → the workload it belongs to.
  const workloadOfNode = (id: string): string | undefined => {
    const n = byId.get(id);
    if (!n) return undefined;
    if (n.kind === 'workload') return n.id;
    if ((n.kind === 'proxy' || n.kind === 'pod') && n.parent && byId.get(n.parent)?.kind === 'workload') return n.parent;
    return undefined;
  };
  return { out, mapped, workloadOfNode };
}

interface Acc {
  edge: TypedEdge;
  routes: Map<string, RouteRef>;
  /** subset → source workload → observed (pods of one workload report the workload's traffic once). */
  observed: Map<string, Map<string, Observed>>;
  subsets: string[];
}

function observedSum(list: Iterable<Observed>): { rps: number; errors: number } {
  let rps = 0;
  let errors = 0;
  for (const o of list) {
    rps += o.requestsPerSecond;
    errors += (o.requestsPerSecond * o.errorPercent) / 100;
  }
  return { rps, errors };
}

/** The overview graph as one of Kiali's graph types. Deterministic: node and edge order follow the input graph. */
export function toGraphType(g: MeshGraph, type: GraphType): TypedGraph {
  if (type === 'proxy') return { ...g, graphType: 'proxy' };
  const { out, mapped, workloadOfNode } = typedNodes(g, type);
  const drawnOf = (id: string): string => {
    const w = workloadOfNode(id);
    return (w && mapped.get(w)) ?? id;
  };
  // Service graph: a workload's traffic starts at the services that select it (endpoint edges).
  const servicesOf = new Map<string, string[]>(); // workload id → service ids
  if (type === 'service')
    for (const e of g.edges) {
      if (e.kind !== 'endpoint') continue;
      const w = workloadOfNode(e.target);
      if (!w) continue;
      const list = servicesOf.get(w) ?? [];
      if (!list.includes(e.source)) list.push(e.source);
      servicesOf.set(w, list);
    }
  const roots = new Set<string>();
  const accs = new Map<string, Acc>();
  const edgeOf = (e: TypedEdge, source: string, target: string): Acc => {
    const id = `${e.kind}:${source}->${target}`;
    let a = accs.get(id);
    if (!a) {
      a = { edge: { id, kind: e.kind, source, target, label: '', merged: 0 }, routes: new Map(), observed: new Map(), subsets: [] };
      accs.set(id, a);
    }
    return a;
  };
  for (const e of g.edges as TypedEdge[]) {
    if (e.kind === 'endpoint') {
      if (type === 'service') continue;
      const a = edgeOf(e, e.source, drawnOf(e.target));
      a.edge.merged! += 1;
      continue;
    }
    const w = workloadOfNode(e.source);
    let sources: string[];
    if (type === 'service') {
      const svcs = w ? servicesOf.get(w) : undefined;
      if (svcs?.length) sources = svcs;
      else {
        sources = [drawnOf(e.source)];
        roots.add(sources[0]!);
      }
    } else sources = [drawnOf(e.source)];
    for (const source of sources) {
      const a = edgeOf(e, source, e.target);
      a.edge.merged! += 1;
      const subset = e.subset ?? '';
      if (!a.subsets.includes(subset)) a.subsets.push(subset);
      if (!e.unconfigured) {
        const key = [e.virtualService ?? '', e.rule ?? '', e.match ?? '', subset, e.percent ?? ''].join('|');
        if (!a.routes.has(key))
          a.routes.set(key, {
            ...(e.virtualService ? { virtualService: e.virtualService } : {}),
            ...(e.rule ? { rule: e.rule } : {}),
            ...(e.match ? { match: e.match } : {}),
            ...(e.subset ? { subset: e.subset } : {}),
            ...(e.percent !== undefined ? { percent: e.percent } : {}),
            ...(e.split ? { split: true } : {}),
            ...(e.fault ? { fault: true } : {}),
          });
      } else a.edge.unconfigured = true;
      if (e.fault) a.edge.fault = true;
      if (e.observed) {
        const bySource = a.observed.get(subset) ?? new Map<string, Observed>();
        bySource.set(w ?? e.source, e.observed);
        a.observed.set(subset, bySource);
      }
    }
  }

  const edges: TypedEdge[] = [];
  const outgoing = new Map<string, number>(); // source node → observed requests/s leaving it
  const rawRps = new Map<string, number>();
  for (const a of accs.values()) {
    const e = a.edge;
    if (e.kind === 'endpoint') {
      edges.push(e);
      continue;
    }
    const routes = [...a.routes.values()];
    e.routes = routes;
    // A split is configured when the edge's rules are one weighted rule: its shares, per subset.
    const rules = new Set(routes.map((r) => `${r.virtualService}|${r.rule}|${r.match}`));
    const configured = rules.size === 1 && routes.some((r) => r.split);
    const hasObserved = a.observed.size > 0;
    const perSubset = new Map([...a.observed].map(([s, m]) => [s, observedSum(m.values())]));
    const total = observedSum([...a.observed.values()].flatMap((m) => [...m.values()]));
    e.splits = a.subsets.map((s) => {
      const share: SplitShare = {};
      if (s) share.subset = s;
      const r = configured ? routes.find((x) => (x.subset ?? '') === s) : undefined;
      if (r?.percent !== undefined) share.configuredPercent = r.percent;
      if (hasObserved) {
        const o = perSubset.get(s) ?? { rps: 0, errors: 0 };
        share.observed = {
          requestsPerSecond: round2(o.rps),
          percent: total.rps > 0 ? round1((o.rps / total.rps) * 100) : 0,
          errorPercent: o.rps > 0 ? round1((o.errors / o.rps) * 100) : 0,
        };
      }
      return share;
    });
    if (configured) e.split = true;
    if (routes.length === 1) {
      const r = routes[0]!;
      if (r.subset) e.subset = r.subset;
      if (r.percent !== undefined) e.percent = r.percent;
      if (r.virtualService) e.virtualService = r.virtualService;
      if (r.rule) e.rule = r.rule;
      if (r.match) e.match = r.match;
    }
    if (hasObserved) {
      rawRps.set(e.id, total.rps);
      e.observed = {
        requestsPerSecond: round2(total.rps),
        percent: 0,
        errorPercent: total.rps > 0 ? round1((total.errors / total.rps) * 100) : 0,
      };
      outgoing.set(e.source, (outgoing.get(e.source) ?? 0) + total.rps);
    }
    e.label = routes.length
      ? routes
          .map((r) => {
            // As the per-proxy label (graph.ts routeLabel): the VirtualService's name, the rule, subset and share.
            const vs = r.virtualService?.slice(r.virtualService.indexOf('/') + 1) ?? '';
            return `${vs} ${r.rule ?? ''}${r.subset ? ` → ${r.subset}` : ''}${r.split ? ` ${r.percent}%` : ''}`.trim();
          })
          .join('; ')
      : e.kind === 'default'
        ? 'default'
        : 'traffic with no configured route';
    edges.push(e);
  }
  // Kiali's edge percentage: the edge's share of its source node's outgoing requests.
  for (const e of edges)
    if (e.observed) {
      const sum = outgoing.get(e.source) ?? 0;
      e.observed.percent = sum > 0 ? round1(((rawRps.get(e.id) ?? 0) / sum) * 100) : 0;
    }

  let nodes = [...out.values()];
  if (type === 'service') {
    // Services and the root workloads (no service selects them) only.
    nodes = nodes.filter((n) => n.kind === 'namespace' || n.kind === 'service' || roots.has(n.id));
  }
  // Drop namespaces (and app boxes) left without members.
  const used = new Set(nodes.filter((n) => n.kind !== 'namespace' && n.kind !== 'app').map((n) => n.parent));
  for (const n of nodes) if (n.kind === 'app' && (type === 'app' || used.has(n.id))) used.add(n.parent);
  nodes = nodes.filter((n) => n.kind !== 'namespace' || used.has(n.id));
  const keep = new Set(nodes.map((n) => n.id));
  return { ...g, graphType: type, nodes, edges: edges.filter((e) => keep.has(e.source) && keep.has(e.target)) };
}
