// Pure filtering of the mesh overview graph, and its URL form (`?ns=a,b&hide=pod&edges=route,default&focus=…`).
import type { MeshEdge, MeshEdgeKind, MeshGraph, MeshNode, MeshNodeKind } from '@/server/api/contract';

export const NODE_KINDS: readonly MeshNodeKind[] = ['namespace', 'service', 'app', 'workload', 'proxy', 'pod'];
export const EDGE_KINDS: readonly MeshEdgeKind[] = ['route', 'mirror', 'default', 'endpoint', 'waypoint'];
/** `default` edges (every sidecar → every service it can reach) are many and say little: off by default. */
export const DEFAULT_EDGE_KINDS: readonly MeshEdgeKind[] = ['route', 'mirror', 'endpoint', 'waypoint'];

export interface GraphFilter {
  /** Show only these namespaces (plus what their proxies route to / what routes into them); empty = all. */
  namespaces: string[];
  hiddenKinds: MeshNodeKind[];
  edgeKinds: MeshEdgeKind[];
  /** A node id: show it (or, for a namespace/workload, its members) and its direct neighbours only. */
  focus?: string;
  /** Namespaces kept expanded when a large graph is collapsed to namespaces (collapse.ts); `*`: all. */
  expand?: string[];
}

export const DEFAULT_FILTER: GraphFilter = { namespaces: [], hiddenKinds: [], edgeKinds: [...DEFAULT_EDGE_KINDS] };

const list = (v: string | null): string[] =>
  v
    ? v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

export function parseFilter(params: Pick<URLSearchParams, 'get'>): GraphFilter {
  const edges = params.get('edges');
  const f: GraphFilter = {
    namespaces: list(params.get('ns')),
    hiddenKinds: list(params.get('hide')).filter((k): k is MeshNodeKind => (NODE_KINDS as string[]).includes(k)),
    edgeKinds:
      edges === null ? [...DEFAULT_EDGE_KINDS] : list(edges).filter((k): k is MeshEdgeKind => (EDGE_KINDS as string[]).includes(k)),
  };
  const focus = params.get('focus');
  if (focus) f.focus = focus;
  const expand = list(params.get('expand'));
  if (expand.length) f.expand = expand;
  return f;
}

/** Only what differs from the default goes into the URL. */
export function filterToParams(f: GraphFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (f.namespaces.length) p.set('ns', f.namespaces.join(','));
  if (f.hiddenKinds.length) p.set('hide', f.hiddenKinds.join(','));
  const sameEdges = f.edgeKinds.length === DEFAULT_EDGE_KINDS.length && DEFAULT_EDGE_KINDS.every((k) => f.edgeKinds.includes(k));
  if (!sameEdges) p.set('edges', f.edgeKinds.join(','));
  if (f.focus) p.set('focus', f.focus);
  if (f.expand?.length) p.set('expand', f.expand.join(','));
  return p;
}

export interface FilteredGraph {
  nodes: MeshNode[];
  edges: MeshEdge[];
}

/**
 * Applies a filter. Leaves (services, proxies, pods) are selected by namespace/focus and kept with the
 * other end of every kept edge; compound nodes (namespaces, workloads) are kept when they still contain
 * a leaf. Hiding a compound kind re-parents its members to the next visible ancestor.
 */
export function filterGraph(g: Pick<MeshGraph, 'nodes' | 'edges'>, f: GraphFilter): FilteredGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  // Compound nodes: namespaces and whatever holds other nodes (a workload around its proxies, an app box
  // around its versions); a workload or app without members is a leaf (the graph types of graphType.ts).
  const parents = new Set<string>();
  for (const n of g.nodes) if (n.parent) parents.add(n.parent);
  const isCompound = (n: MeshNode) => n.kind === 'namespace' || parents.has(n.id);
  const hidden = new Set(f.hiddenKinds);
  const edgeKinds = new Set(f.edgeKinds);
  // Hiding proxies/pods collapses them into their workload, which then carries their edges.
  const collapsed = new Map<string, string>();
  for (const n of g.nodes) {
    if (isCompound(n) || !hidden.has(n.kind) || !n.parent) continue;
    const parent = byId.get(n.parent);
    if (parent?.kind === 'workload' && !hidden.has('workload')) collapsed.set(n.id, parent.id);
  }
  const collapsedInto = new Set(collapsed.values());
  const leaves = g.nodes.filter((n) => (!isCompound(n) && !hidden.has(n.kind)) || collapsedInto.has(n.id));
  const leafIds = new Set(leaves.map((n) => n.id));
  const seenEdges = new Set<string>();
  let edges: MeshEdge[] = [];
  for (const e of g.edges) {
    if (!edgeKinds.has(e.kind)) continue;
    const source = collapsed.get(e.source) ?? e.source;
    const target = collapsed.get(e.target) ?? e.target;
    if (!leafIds.has(source) || !leafIds.has(target)) continue;
    if (source === e.source && target === e.target) {
      edges.push(e);
      continue;
    }
    // Same rule from several pods of one workload: one edge from the workload.
    const id = [e.kind, source, target, e.virtualService ?? '', e.rule ?? '', e.subset ?? '', e.percent ?? ''].join('|');
    if (seenEdges.has(id)) continue;
    seenEdges.add(id);
    edges.push({ ...e, id, source, target });
  }

  const within = (n: MeshNode, root: string): boolean => {
    for (let cur: MeshNode | undefined = n; cur; cur = cur.parent ? byId.get(cur.parent) : undefined) if (cur.id === root) return true;
    return false;
  };
  let seeds: Set<string> | undefined;
  if (f.namespaces.length) {
    const ns = new Set(f.namespaces);
    seeds = new Set(leaves.filter((n) => ns.has(n.namespace)).map((n) => n.id));
  }
  if (f.focus && byId.has(f.focus)) {
    const focus = f.focus;
    const inFocus = leaves.filter((n) => within(n, focus)).map((n) => n.id);
    seeds = new Set(seeds ? inFocus.filter((id) => seeds!.has(id)) : inFocus);
  }
  let keep: Set<string>;
  if (seeds) {
    const s = seeds;
    edges = edges.filter((e) => s.has(e.source) || s.has(e.target));
    keep = new Set([...s, ...edges.flatMap((e) => [e.source, e.target])]);
  } else {
    keep = leafIds;
  }

  // The visible parent of a node: the nearest ancestor whose kind is not hidden.
  const visibleParent = (n: MeshNode): string | undefined => {
    let p = n.parent ? byId.get(n.parent) : undefined;
    while (p && hidden.has(p.kind)) p = p.parent ? byId.get(p.parent) : undefined;
    return p?.id;
  };
  const out = new Map<string, MeshNode>();
  const addWithAncestors = (id: string) => {
    const n = byId.get(id);
    if (!n || out.has(id)) return;
    const parent = visibleParent(n);
    const copy: MeshNode = { ...n };
    if (parent) copy.parent = parent;
    else delete copy.parent;
    out.set(id, copy);
    if (parent) addWithAncestors(parent);
  };
  for (const id of keep) addWithAncestors(id);
  // Keep the graph's node order (namespaces first, then services, workloads, pods).
  const nodes = g.nodes.filter((n) => out.has(n.id)).map((n) => out.get(n.id)!);
  return { nodes, edges };
}

/** Node kinds present in a graph, in NODE_KINDS order (what the kind filter offers). */
export const kindsOf = (g: Pick<MeshGraph, 'nodes'>): MeshNodeKind[] => {
  const present = new Set(g.nodes.map((n) => n.kind));
  return NODE_KINDS.filter((k) => present.has(k));
};

/** Namespaces present in a graph, sorted. */
export const namespacesOf = (g: Pick<MeshGraph, 'nodes'>): string[] =>
  [...new Set(g.nodes.filter((n) => n.kind === 'namespace').map((n) => n.namespace))].sort();
