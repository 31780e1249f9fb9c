// Facts about one node for the details panel: where a route sits among the routes its source object
// contributed to the same virtual host (Istio emits a VirtualService's routes in rule order), its listen
// port (sidecar route configs are named by port), and what the node leads to.
import type { GraphNode, RouteGraph } from './types';

export interface RouteContext {
  name: string;
  /** Index among the routes of the same virtual host with the same source object. */
  ordinal: number;
  listenPort?: number;
}

export function routeContext(g: RouteGraph, node: GraphNode): RouteContext | undefined {
  if (node.kind !== 'route' || node.routeIndex === undefined) return undefined;
  const json = node.json as { name?: unknown } | undefined;
  const name = typeof json?.name === 'string' ? json.name : '';
  const ordinal = g.nodes.filter(
    (n) =>
      n.kind === 'route' &&
      n.virtualHostId === node.virtualHostId &&
      n.sourcePath === node.sourcePath &&
      (n.routeIndex ?? 0) < (node.routeIndex ?? 0),
  ).length;
  const rc = g.nodes.find((n) => n.id === node.routeConfigId);
  const listenPort = rc && /^\d+$/.test(rc.label) ? Number(rc.label) : undefined;
  return { name, ordinal, ...(listenPort !== undefined ? { listenPort } : {}) };
}

/** Outgoing edges of a node with their targets' labels (e.g. a route's clusters with %). */
export function outgoing(g: RouteGraph, id: string): { label: string; percent?: number; target: string }[] {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  return g.edges
    .filter((e) => e.source === id)
    .map((e) => ({
      target: e.target,
      label: (byId.get(e.target)?.label ?? e.target).replace('\n', ''),
      ...(e.kind === 'weighted' && e.percent !== undefined ? { percent: e.percent } : {}),
    }));
}
