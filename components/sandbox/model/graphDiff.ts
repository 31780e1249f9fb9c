// A proxy's route graph live vs draft, merged into one graph whose nodes and edges are marked added,
// removed or changed (weights old → new), for the sandbox's coloured route graph. The draft config is
// the live one with the evaluation's changed resources swapped in (their `after` JSON). Pure.
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import type { ResourceChange } from '@/server/sandbox/types';
import { buildRouteGraph } from '@/components/routeGraph/model/build';
import type { GraphEdge, GraphNode, RouteGraph } from '@/components/routeGraph/model/types';

export type DiffMark = 'added' | 'removed' | 'changed';

export interface GraphDiff {
  graph: RouteGraph;
  nodes: Map<string, DiffMark>;
  edges: Map<string, DiffMark>;
}

type J = Record<string, unknown>;
const nameOf = (r: unknown, key = 'name') => (r && typeof r === 'object' ? ((r as J)[key] as string | undefined) : undefined);

// ztunnel's WDS resources (the `ztunnel` entry) are no part of an Envoy config: left out of the graph.
const SECTION: Partial<Record<ResourceChange['type'], { list: keyof EnvoyConfig; key: string }>> = {
  listeners: { list: 'listeners', key: 'name' },
  routes: { list: 'routes', key: 'name' },
  clusters: { list: 'clusters', key: 'name' },
  endpoints: { list: 'endpoints', key: 'cluster_name' },
};

/** The live config with the draft's changed resources replaced, added or removed (by name). */
export function applyChanges(live: EnvoyConfig, changes: readonly ResourceChange[]): EnvoyConfig {
  const out: EnvoyConfig = {
    listeners: [...live.listeners],
    routes: [...live.routes],
    clusters: [...live.clusters],
    endpoints: [...live.endpoints],
  };
  for (const c of changes) {
    const section = SECTION[c.type];
    if (!section) continue;
    const { list, key } = section;
    const arr = out[list] as unknown[];
    const i = arr.findIndex((r) => nameOf(r, key) === c.name);
    if (c.change === 'removed' || c.after === undefined) {
      if (i >= 0) arr.splice(i, 1);
    } else if (i >= 0) arr[i] = c.after;
    else arr.push(c.after);
  }
  return out as EnvoyConfig;
}

/**
 * Ids that survive reordering: virtual hosts by name, routes by name (else their match) within their
 * virtual host. buildRouteGraph's own ids are positional, so an inserted route would look like many changes.
 */
function canonical(g: RouteGraph): Map<string, string> {
  const ids = new Map<string, string>();
  for (const n of g.nodes) if (n.kind === 'virtualHost') ids.set(n.id, `vh:${n.routeConfigId ?? ''}/${n.label}`);
  const seen = new Map<string, number>();
  for (const n of g.nodes) {
    if (n.kind !== 'route') {
      if (!ids.has(n.id)) ids.set(n.id, n.id);
      continue;
    }
    const vh = ids.get(n.virtualHostId ?? '') ?? n.virtualHostId ?? '';
    const name = n.source?.rule && !/^#/.test(n.source.rule) ? n.source.rule : (n.detail?.split(' → ')[0] ?? n.label);
    const base = `route:${vh}/${name}`;
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    ids.set(n.id, k ? `${base}#${k}` : base);
  }
  return ids;
}

function remap(g: RouteGraph): { nodes: Map<string, GraphNode>; edges: Map<string, GraphEdge> } {
  const ids = canonical(g);
  const id = (x: string) => ids.get(x) ?? x;
  const nodes = new Map<string, GraphNode>();
  for (const n of g.nodes) {
    const m: GraphNode = { ...n, id: id(n.id) };
    if (n.virtualHostId) m.virtualHostId = id(n.virtualHostId);
    nodes.set(m.id, m);
  }
  const edges = new Map<string, GraphEdge>();
  for (const e of g.edges) {
    const s = id(e.source);
    const t = id(e.target);
    const eid = `${e.kind === 'weighted' ? 'route' : e.kind}:${s}->${t}`;
    edges.set(eid, { ...e, id: eid, source: s, target: t });
  }
  return { nodes, edges };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Merges the live and draft graphs; draft nodes win, live-only ones stay marked removed. */
export function diffRouteGraphs(live: RouteGraph, draft: RouteGraph): GraphDiff {
  const a = remap(live);
  const b = remap(draft);
  const nodes = new Map<string, DiffMark>();
  const edges = new Map<string, DiffMark>();
  const outNodes: GraphNode[] = [];
  for (const n of b.nodes.values()) {
    const old = a.nodes.get(n.id);
    if (!old) nodes.set(n.id, 'added');
    else if ((n.kind === 'route' || n.kind === 'cluster') && !same(old.json, n.json)) nodes.set(n.id, 'changed');
    outNodes.push(n);
  }
  for (const n of a.nodes.values())
    if (!b.nodes.has(n.id)) {
      nodes.set(n.id, 'removed');
      outNodes.push(n);
    }
  const outEdges: GraphEdge[] = [];
  for (const e of b.edges.values()) {
    const old = a.edges.get(e.id);
    if (!old) {
      edges.set(e.id, 'added');
      outEdges.push(e);
    } else if (old.percent !== e.percent && (old.percent !== undefined || e.percent !== undefined)) {
      edges.set(e.id, 'changed');
      outEdges.push({ ...e, label: `${old.percent ?? 100}% → ${e.percent ?? 100}%` });
    } else outEdges.push(e);
  }
  for (const e of a.edges.values())
    if (!b.edges.has(e.id)) {
      edges.set(e.id, 'removed');
      outEdges.push({ ...e, label: e.percent !== undefined && e.percent < 100 ? `${e.percent}% → 0%` : 'removed' });
    }
  return { graph: { nodes: outNodes, edges: outEdges }, nodes, edges };
}

/** Live and draft graphs of one proxy from its live config and the evaluation's resource changes. */
export function proxyGraphDiff(live: EnvoyConfig, changes: readonly ResourceChange[]): GraphDiff {
  return diffRouteGraphs(buildRouteGraph(live), buildRouteGraph(applyChanges(live, changes)));
}
