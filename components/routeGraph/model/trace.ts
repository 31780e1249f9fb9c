// A simulation result (server/simulate) located on the route graph: the nodes and edges of the path the
// request takes, and the candidates it passed over with the simulator's reason.
import type { SimResult } from '@/server/simulate/types';
import { nodeIds } from './build';
import type { GraphFilter, GraphNode, RouteGraph } from './types';

export interface TracePath {
  nodes: Set<string>;
  edges: Set<string>;
  /** Node id → why the request did not take it. */
  rejected: Map<string, string>;
}

const edgeId = (s: string, t: string) => `${s}->${t}`;

export function tracePath(g: RouteGraph, r: SimResult): TracePath {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const edgeIds = new Set(g.edges.map((e) => e.id));
  const path: TracePath = { nodes: new Set(), edges: new Set(), rejected: new Map() };
  const step = (from: string | undefined, to: string | undefined) => {
    if (!to || !byId.has(to)) return;
    path.nodes.add(to);
    if (from && edgeIds.has(edgeId(from, to))) path.edges.add(edgeId(from, to));
  };
  const listener = r.listener !== undefined && byId.has(nodeIds.listener(r.listener)) ? nodeIds.listener(r.listener) : undefined;
  step(undefined, listener);
  // The route configuration: the one the listener leads to with that name, else any with that name.
  let rc: GraphNode | undefined;
  if (r.routeConfig !== undefined) {
    const named = g.nodes.filter((n) => n.kind === 'routeConfig' && n.label === r.routeConfig);
    rc = named.find((n) => listener !== undefined && edgeIds.has(edgeId(listener, n.id))) ?? named[0];
  }
  step(listener, rc?.id);
  const vh =
    rc && r.virtualHost !== undefined
      ? g.nodes.find((n) => n.kind === 'virtualHost' && n.routeConfigId === rc.id && n.label === r.virtualHost)
      : undefined;
  step(rc?.id, vh?.id);
  const route = vh && r.routeIndex !== undefined ? nodeIds.route(vh.id, r.routeIndex) : undefined;
  step(vh?.id, route);
  const clusters = r.cluster !== undefined ? [r.cluster] : Object.keys(r.weightedClusters ?? {});
  // HTTP: from the route; TCP: straight from the listener.
  const from = route ?? (rc ? undefined : listener);
  for (const c of clusters) {
    const cid = nodeIds.cluster(c);
    step(from, cid);
    for (const ep of r.endpoints ?? []) if (edgeIds.has(edgeId(cid, nodeIds.endpoint(ep)))) step(cid, nodeIds.endpoint(ep));
  }
  for (const x of r.rejected) {
    let id: string | undefined;
    if (x.hop === 'listener') id = nodeIds.listener(x.name);
    else if (x.hop === 'virtualHost' && rc && x.index !== undefined) id = nodeIds.virtualHost(rc.id, x.index);
    else if (x.hop === 'route' && vh && x.index !== undefined) id = nodeIds.route(vh.id, x.index);
    else if (x.hop === 'routeConfig') id = g.nodes.find((n) => n.kind === 'routeConfig' && n.label === x.name)?.id;
    if (id && byId.has(id) && !path.rejected.has(id)) path.rejected.set(id, x.reason);
  }
  return path;
}

/** The graph filter that shows a traced request: its virtual host (HTTP) or its listener (TCP). */
export function traceFilter(r: SimResult): GraphFilter {
  if (r.virtualHost !== undefined && r.routeConfig !== undefined) return { routeConfig: r.routeConfig, virtualHost: r.virtualHost };
  if (r.routeConfig !== undefined) return { routeConfig: r.routeConfig };
  if (r.listener !== undefined) return { listener: r.listener };
  return {};
}
