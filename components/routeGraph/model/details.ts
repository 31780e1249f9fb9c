// Facts about one node for the details panel: where a route sits in the RDS output (route config, virtual
// host, index: the key of translation's provenance, which names the VirtualService rule behind it), and
// what the node leads to.
import type { GraphNode, RouteGraph } from './types';

export interface RouteKey {
  routeConfig: string;
  virtualHost: string;
  index: number;
}

export function routeContext(g: RouteGraph, node: GraphNode): RouteKey | undefined {
  if (node.kind !== 'route' || node.routeIndex === undefined) return undefined;
  const rc = g.nodes.find((n) => n.id === node.routeConfigId);
  const vh = g.nodes.find((n) => n.id === node.virtualHostId);
  if (!rc || !vh || rc.missing) return undefined;
  return { routeConfig: rc.label, virtualHost: vh.label, index: node.routeIndex };
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
