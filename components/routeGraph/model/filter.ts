// Narrowing the route graph: pick focus nodes (a listener, a route configuration, a virtual host, a port,
// some text) and keep them with everything upstream of them (what reaches them) and downstream (what
// they reach). Siblings are dropped: focusing a virtual host keeps its route configuration and listeners,
// not the other virtual hosts.
import type { GraphEdge, GraphFilter, GraphNode, RouteGraph } from './types';

interface Adjacency {
  out: Map<string, string[]>;
  in: Map<string, string[]>;
}

function adjacency(edges: readonly GraphEdge[]): Adjacency {
  const out = new Map<string, string[]>();
  const inn = new Map<string, string[]>();
  for (const e of edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    inn.set(e.target, [...(inn.get(e.target) ?? []), e.source]);
  }
  return { out, in: inn };
}

function walk(start: Iterable<string>, next: Map<string, string[]>, into: Set<string>): void {
  const stack = [...start];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    into.add(id);
    for (const n of next.get(id) ?? []) stack.push(n);
  }
}

/** Focus nodes plus their ancestors and descendants, as a subgraph (node and edge order kept). */
export function closure(g: RouteGraph, focus: ReadonlySet<string>): RouteGraph {
  const adj = adjacency(g.edges);
  const keep = new Set<string>();
  walk(focus, adj.out, keep);
  walk(focus, adj.in, keep);
  return subgraph(g, keep);
}

export function subgraph(g: RouteGraph, keep: ReadonlySet<string>): RouteGraph {
  return { nodes: g.nodes.filter((n) => keep.has(n.id)), edges: g.edges.filter((e) => keep.has(e.source) && keep.has(e.target)) };
}

function portOf(n: GraphNode): number | undefined {
  if (n.kind === 'listener') {
    const m = /:(\d+)$/.exec(n.detail ?? '') ?? /_(\d+)$/.exec(n.label);
    return m ? Number(m[1]) : undefined;
  }
  if (n.kind === 'routeConfig') {
    // Sidecar `9080`, gateway `http.8080` / `https.443.…`, sniffed `host:port` (Istio's route names).
    const m = /^(\d+)$/.exec(n.label) ?? /^https?\.(\d+)/.exec(n.label) ?? /:(\d+)$/.exec(n.label);
    return m ? Number(m[1]) : undefined;
  }
  return undefined;
}

const textOf = (n: GraphNode) =>
  `${n.label}\n${n.detail ?? ''}\n${n.source ? `${n.source.kind} ${n.source.namespace}/${n.source.name}` : ''}`.toLowerCase();

/** The graph narrowed by every criterion given (an empty filter keeps everything). */
export function filterGraph(g: RouteGraph, f: GraphFilter): RouteGraph {
  let out = g;
  const focus = (pred: (n: GraphNode) => boolean) => {
    const ids = new Set(out.nodes.filter(pred).map((n) => n.id));
    out = closure(out, ids);
  };
  if (f.listener) focus((n) => n.kind === 'listener' && n.label === f.listener);
  if (f.port !== undefined) focus((n) => portOf(n) === f.port);
  if (f.routeConfig) focus((n) => n.kind === 'routeConfig' && n.label === f.routeConfig);
  if (f.virtualHost) focus((n) => n.kind === 'virtualHost' && n.label === f.virtualHost);
  const text = f.text?.trim().toLowerCase();
  if (text) focus((n) => textOf(n).includes(text));
  return out;
}

/** Names a user can pick from, in graph order (for the filter selects). */
export function filterChoices(g: RouteGraph, f: GraphFilter = {}) {
  const uniq = (xs: string[]) => [...new Set(xs)];
  const scoped = filterGraph(g, {
    ...(f.listener ? { listener: f.listener } : {}),
    ...(f.routeConfig ? { routeConfig: f.routeConfig } : {}),
  });
  return {
    listeners: uniq(g.nodes.filter((n) => n.kind === 'listener').map((n) => n.label)),
    routeConfigs: uniq(
      filterGraph(g, f.listener ? { listener: f.listener } : {})
        .nodes.filter((n) => n.kind === 'routeConfig')
        .map((n) => n.label),
    ),
    virtualHosts: uniq(scoped.nodes.filter((n) => n.kind === 'virtualHost').map((n) => n.label)),
  };
}

/**
 * A starting filter for graphs too large to draw whole: the route configuration with the most virtual hosts
 * that fits, else the first virtual host. Small graphs are shown whole.
 */
export function suggestFilter(g: RouteGraph, maxNodes = 250): GraphFilter {
  if (g.nodes.length <= maxNodes) return {};
  const rcs = g.nodes.filter((n) => n.kind === 'routeConfig' && !n.missing);
  const fitting = rcs
    .map((n) => ({ n, size: filterGraph(g, { routeConfig: n.label }).nodes.length }))
    .filter((x) => x.size <= maxNodes)
    .sort((a, b) => b.size - a.size)[0];
  if (fitting) return { routeConfig: fitting.n.label };
  const vh = g.nodes.find((n) => n.kind === 'virtualHost');
  const rc = vh ? g.nodes.find((n) => n.id === vh.routeConfigId) : undefined;
  return vh ? { ...(rc ? { routeConfig: rc.label } : {}), virtualHost: vh.label } : {};
}
