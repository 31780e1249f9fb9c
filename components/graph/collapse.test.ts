import { describe, expect, it } from 'vitest';
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { COLLAPSE_THRESHOLD, collapseGraph, EXPAND_ALL, expandedFor, isAggregated, shouldCollapse, summaryText } from './collapse';
import { toElements } from './elements';
import type { FilteredGraph } from './filter';

/**
 * A mesh shaped like the overview's (server/meshGraph/graph.ts): namespaces ⊃ services and workloads ⊃
 * proxies; every proxy routes to each service of its own namespace and to svc-0 of the next namespace;
 * each service has endpoint edges to its two proxies.
 */
function mesh(namespaces: number, servicesPer: number): FilteredGraph {
  const nodes: MeshNode[] = [];
  const edges: MeshEdge[] = [];
  for (let n = 0; n < namespaces; n++)
    nodes.push({ id: `ns:ns-${n}`, kind: 'namespace', label: `ns-${n}`, namespace: `ns-${n}`, badges: [] });
  const proxies: MeshNode[] = [];
  for (let n = 0; n < namespaces; n++)
    for (let i = 0; i < servicesPer; i++) {
      const ns = `ns-${n}`;
      nodes.push({ id: `svc:${ns}/svc-${i}`, kind: 'service', label: `svc-${i}`, namespace: ns, parent: `ns:${ns}`, badges: [] });
      for (const v of ['v1', 'v2']) {
        const wl = `wl:${ns}/Deployment/svc-${i}-${v}`;
        nodes.push({ id: wl, kind: 'workload', label: `svc-${i}-${v}`, namespace: ns, parent: `ns:${ns}`, badges: [] });
        const p: MeshNode = {
          id: `proxy:svc-${i}-${v}.${ns}`,
          kind: 'proxy',
          label: `svc-${i}-${v}`,
          namespace: ns,
          parent: wl,
          badges: [],
        };
        proxies.push(p);
        edges.push({ id: `endpoint:svc:${ns}/svc-${i}->${p.id}`, kind: 'endpoint', source: `svc:${ns}/svc-${i}`, target: p.id, label: '' });
      }
    }
  nodes.push(...proxies);
  for (const p of proxies) {
    const n = Number(p.namespace.slice(3));
    for (let i = 0; i < servicesPer; i++)
      edges.push({ id: `route:${p.id}->${i}`, kind: 'route', source: p.id, target: `svc:${p.namespace}/svc-${i}`, label: 'r' });
    const next = `ns-${(n + 1) % namespaces}`;
    edges.push({ id: `route:${p.id}->${next}`, kind: 'route', source: p.id, target: `svc:${next}/svc-0`, label: 'r', fault: n === 0 });
  }
  return { nodes, edges };
}

const countOf = (e: MeshEdge) => (isAggregated(e) ? e.count : 1);

describe('collapse to namespaces', () => {
  it('collapses only above the threshold of services + workloads', () => {
    // 3 services per namespace: 3 services + 6 workloads = 9 per namespace.
    const small = mesh(Math.floor(COLLAPSE_THRESHOLD / 9), 3);
    expect(shouldCollapse(small)).toBe(false);
    expect(expandedFor(small, [], [])).toEqual(new Set([EXPAND_ALL]));
    const big = mesh(Math.floor(COLLAPSE_THRESHOLD / 9) + 1, 3);
    expect(shouldCollapse(big)).toBe(true);
    expect(expandedFor(big, ['ns-1'], ['ns-2'])).toEqual(new Set(['ns-1', 'ns-2']));
  });

  it('below the threshold (expand=*) the graph is unchanged', () => {
    const g = mesh(2, 2);
    const c = collapseGraph(g, expandedFor(g, [], []));
    expect(c.nodes).toEqual(g.nodes);
    expect(c.edges).toEqual(g.edges);
    expect(c.collapsed.size).toBe(0);
  });

  it('every namespace collapsed: one node each with what it holds; edges aggregated per kind and direction', () => {
    const g = mesh(4, 5);
    const c = collapseGraph(g, new Set());
    expect(c.nodes.map((n) => n.id)).toEqual(['ns:ns-0', 'ns:ns-1', 'ns:ns-2', 'ns:ns-3']);
    expect(c.nodes.every((n) => n.kind === 'namespace' && n.parent === undefined)).toBe(true);
    const s = c.collapsed.get('ns:ns-1')!;
    // 5 services, 10 workloads, 10 proxies; inside: 10 endpoint edges + 10 proxies × 5 routes.
    expect(s).toEqual({ namespace: 'ns-1', services: 5, apps: 0, workloads: 10, proxies: 10, pods: 0, internal: 10 + 50 });
    expect(summaryText(s)).toBe('5 services · 10 workloads · 10 proxies');
    // Between namespaces only the ring of routes to the next namespace's svc-0: 10 proxies each.
    expect(c.edges).toHaveLength(4);
    for (const e of c.edges) {
      expect(isAggregated(e)).toBe(true);
      expect(e.kind).toBe('route');
      expect(countOf(e)).toBe(10);
      expect(e.label).toBe('10 route edges');
    }
    expect(c.edges.find((e) => e.source === 'ns:ns-0')).toMatchObject({ target: 'ns:ns-1', fault: true });
    expect(c.edges.find((e) => e.source === 'ns:ns-1')!.fault).toBeUndefined();
  });

  it('expanding one namespace keeps its members and ends their outside edges at the collapsed namespaces', () => {
    const g = mesh(3, 2);
    const c = collapseGraph(g, new Set(['ns-1']));
    const inNs1 = g.nodes.filter((n) => n.namespace === 'ns-1');
    // Unchanged members, parents included (the namespace stays their compound parent).
    for (const n of inNs1) expect(c.nodes).toContainEqual(n);
    expect(c.nodes.filter((n) => n.namespace !== 'ns-1').map((n) => n.id)).toEqual(['ns:ns-0', 'ns:ns-2']);
    // Edges inside ns-1 are kept as they are.
    const inside = g.edges.filter((e) => e.source.includes('ns-1') && e.target.includes('ns-1'));
    for (const e of inside) expect(c.edges).toContainEqual(e);
    // Each ns-1 proxy routes to ns-2's svc-0: one aggregated edge per proxy (count 1) to the namespace node.
    const out = c.edges.filter((e) => e.target === 'ns:ns-2');
    expect(out.map((e) => e.source).sort()).toEqual(
      inNs1
        .filter((n) => n.kind === 'proxy')
        .map((n) => n.id)
        .sort(),
    );
    expect(out.every((e) => countOf(e) === 1)).toBe(true);
    // ns-0's proxies route to ns-1's svc-0: one edge from the collapsed ns-0 standing for its 4 proxies.
    expect(c.edges.filter((e) => e.source === 'ns:ns-0')).toEqual([
      expect.objectContaining({ target: 'svc:ns-1/svc-0', count: 4, kind: 'route' }),
    ]);
  });

  it('no edge is lost: drawn counts + internal counts = the edges in view, for any set of expanded namespaces', () => {
    const g = mesh(5, 3);
    const names = ['ns-0', 'ns-1', 'ns-2', 'ns-3', 'ns-4'];
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const expanded = new Set(names.filter((_, i) => mask & (1 << i)));
      const c = collapseGraph(g, expanded);
      const ids = new Set(c.nodes.map((n) => n.id));
      let total = 0;
      for (const e of c.edges) {
        expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
        total += countOf(e);
      }
      for (const s of c.collapsed.values()) total += s.internal;
      expect(total).toBe(g.edges.length);
      for (const n of c.nodes) if (n.parent) expect(ids.has(n.parent)).toBe(true);
      expect(new Set(c.nodes.map((n) => n.id)).size).toBe(c.nodes.length);
    }
  });

  it('elements: a collapsed namespace says what it holds and expands on click; aggregated edges show their count', () => {
    const c = collapseGraph(mesh(3, 2), new Set(['ns-1']));
    const els = toElements(c);
    const ns0 = els.find((e) => e.data.id === 'ns:ns-0')!;
    expect(ns0).toEqual({
      group: 'nodes',
      data: { id: 'ns:ns-0', label: 'ns-0\n2 services · 4 workloads · 4 proxies', kind: 'namespace', collapsed: true },
      classes: 'namespace collapsed',
    });
    // The expanded namespace is an ordinary compound node, not collapsed.
    expect(els.find((e) => e.data.id === 'ns:ns-1')!.classes).toBe('namespace');
    const agg = els.find((e) => e.group === 'edges' && e.data.id.startsWith('agg:route:ns:ns-0->'))!;
    expect(agg.data).toMatchObject({ label: '4', count: 4 });
    expect(agg.classes).toContain('aggregated');
  });
});
