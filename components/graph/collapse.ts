// Pure: a large overview graph collapsed to namespaces. Above a threshold of services + workloads in view,
// every namespace not explicitly expanded becomes one node that counts what it holds, and the edges that
// touch its members become one edge per (kind, source, target) carrying how many edges it stands for. An
// expanded namespace keeps its members; their edges to collapsed namespaces end at the namespace node.
// Edges inside one collapsed namespace are counted on it (`internal`), not drawn.
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { nodeId } from '@/server/meshGraph/ids';
import type { FilteredGraph } from './filter';

/** More services + workloads in view than this: collapse to namespaces by default. */
export const COLLAPSE_THRESHOLD = 300;
/** `expand=*`: every namespace expanded (the full graph, however large). */
export const EXPAND_ALL = '*';

interface NamespaceSummary {
  namespace: string;
  services: number;
  /** App nodes (the app graph) and app boxes (the versioned-app graph). */
  apps: number;
  workloads: number;
  proxies: number;
  pods: number;
  /** Edges with both ends inside this collapsed namespace (not drawn). */
  internal: number;
}

/** An edge that stands for `count` edges of one kind between the same two drawn nodes. */
interface AggregatedEdge extends MeshEdge {
  count: number;
}

export interface CollapsedGraph extends FilteredGraph {
  edges: Array<MeshEdge | AggregatedEdge>;
  /** Node id of each collapsed namespace node → what it holds. Empty: nothing collapsed. */
  collapsed: Map<string, NamespaceSummary>;
}

/** Services, apps and workloads in a graph: what the threshold counts (proxies/pods live inside workloads). */
export const sizeOf = (g: Pick<FilteredGraph, 'nodes'>): number =>
  g.nodes.reduce((n, x) => n + (x.kind === 'service' || x.kind === 'workload' || x.kind === 'app' ? 1 : 0), 0);

export const shouldCollapse = (g: Pick<FilteredGraph, 'nodes'>, threshold = COLLAPSE_THRESHOLD): boolean => sizeOf(g) > threshold;

export const isAggregated = (e: MeshEdge | AggregatedEdge): e is AggregatedEdge => typeof (e as AggregatedEdge).count === 'number';

/** Text of a collapsed namespace node's second line: `10 services · 20 workloads · 20 proxies`. */
export function summaryText(s: NamespaceSummary): string {
  const part = (n: number, one: string, many: string) => (n ? [`${n} ${n === 1 ? one : many}`] : []);
  return [
    ...part(s.services, 'service', 'services'),
    ...part(s.apps, 'app', 'apps'),
    ...part(s.workloads, 'workload', 'workloads'),
    ...part(s.proxies, 'proxy', 'proxies'),
    ...part(s.pods, 'pod', 'pods'),
  ].join(' · ');
}

/**
 * Collapses every namespace not in `expanded` (`*` in it: none collapsed). Node order follows the input
 * (a collapsed namespace takes its first member's place when the namespace node itself is not in view);
 * aggregated edges follow the order of the first edge each stands for.
 */
export function collapseGraph(g: FilteredGraph, expanded: ReadonlySet<string>): CollapsedGraph {
  if (expanded.has(EXPAND_ALL)) return { nodes: g.nodes, edges: g.edges, collapsed: new Map() };
  const collapsed = new Map<string, NamespaceSummary>();
  const rep = new Map<string, string>(); // node id → the drawn node it maps to (only for collapsed members)
  const nodes: MeshNode[] = [];
  const summaryOf = (ns: string): NamespaceSummary => {
    const id = nodeId.namespace(ns);
    let s = collapsed.get(id);
    if (!s) {
      s = { namespace: ns, services: 0, apps: 0, workloads: 0, proxies: 0, pods: 0, internal: 0 };
      collapsed.set(id, s);
      nodes.push({ id, kind: 'namespace', label: ns, namespace: ns, badges: [] });
    }
    return s;
  };
  for (const n of g.nodes) {
    if (expanded.has(n.namespace)) {
      nodes.push(n);
      continue;
    }
    const s = summaryOf(n.namespace);
    rep.set(n.id, nodeId.namespace(n.namespace));
    if (n.kind === 'service') s.services++;
    else if (n.kind === 'workload') s.workloads++;
    else if (n.kind === 'app') s.apps++;
    else if (n.kind === 'proxy') s.proxies++;
    else if (n.kind === 'pod') s.pods++;
  }
  const edges: Array<MeshEdge | AggregatedEdge> = [];
  const merged = new Map<string, AggregatedEdge>();
  for (const e of g.edges) {
    const source = rep.get(e.source);
    const target = rep.get(e.target);
    if (source === undefined && target === undefined) {
      edges.push(e);
      continue;
    }
    const s = source ?? e.source;
    const t = target ?? e.target;
    if (s === t) {
      collapsed.get(s)!.internal++;
      continue;
    }
    const id = `agg:${e.kind}:${s}->${t}`;
    const seen = merged.get(id);
    if (seen) {
      seen.count++;
      if (e.fault) seen.fault = true;
      continue;
    }
    const agg: AggregatedEdge = { id, kind: e.kind, source: s, target: t, label: '', count: 1, ...(e.fault ? { fault: true } : {}) };
    merged.set(id, agg);
    edges.push(agg);
  }
  for (const a of merged.values()) a.label = `${a.count} ${a.kind} edge${a.count === 1 ? '' : 's'}`;
  return { nodes, edges, collapsed };
}

/**
 * The namespaces to keep expanded for a filter: `expand=` from the URL, plus the namespaces the user
 * filtered by (they asked to see those). Collapsing happens only when the graph in view is over the
 * threshold; otherwise everything is expanded.
 */
export function expandedFor(g: Pick<FilteredGraph, 'nodes'>, expand: readonly string[], filterNamespaces: readonly string[]): Set<string> {
  if (!shouldCollapse(g)) return new Set([EXPAND_ALL]);
  return new Set([...expand, ...filterNamespaces]);
}
