import { describe, expect, it } from 'vitest';
import type { MeshNode } from '@/server/api/contract';
import { LAYOUT, toElements } from './elements';
import { layoutRequest } from './layoutClient';
import { answer, computeLayout, DAGRE_MAX_WORK, estimateMeasure, layoutEdges, layoutOptionsFor, nodeSize } from './layoutCore';

const node = (id: string, kind: MeshNode['kind'], parent?: string, badges: MeshNode['badges'] = []): MeshNode => ({
  id,
  kind,
  label: id,
  namespace: 'shop',
  ...(parent ? { parent } : {}),
  badges,
});

const graph = {
  nodes: [
    node('ns:shop', 'namespace'),
    node('svc:shop/a', 'service', 'ns:shop'),
    node('svc:shop/b', 'service', 'ns:shop'),
    node('wl:shop/Deployment/web', 'workload', 'ns:shop'),
    node('proxy:web-1.shop', 'proxy', 'wl:shop/Deployment/web', [{ kind: 'gateway', text: 'gateway' }]),
  ],
  edges: [
    { id: 'r1', kind: 'route' as const, source: 'proxy:web-1.shop', target: 'svc:shop/a', label: '' },
    { id: 'r2', kind: 'route' as const, source: 'svc:shop/a', target: 'svc:shop/b', label: '' },
  ],
};

describe('off-thread layout core', () => {
  it('the request carries what the stylesheet sizes nodes by: label, font size, padding (gateways get 14 px)', () => {
    const req = layoutRequest(7, toElements(graph), { ...LAYOUT });
    expect(req.seq).toBe(7);
    expect(req.nodes.find((n) => n.id === 'proxy:web-1.shop')).toEqual({
      id: 'proxy:web-1.shop',
      parent: 'wl:shop/Deployment/web',
      label: 'proxy:web-1.shop\n[gateway]',
      fontSize: 13,
      padding: 14,
    });
    expect(req.nodes.find((n) => n.id === 'svc:shop/a')).toMatchObject({ fontSize: 13, padding: 8, parent: 'ns:shop' });
    expect(req.edges).toEqual([
      { id: 'r1', source: 'proxy:web-1.shop', target: 'svc:shop/a' },
      { id: 'r2', source: 'svc:shop/a', target: 'svc:shop/b' },
    ]);
  });

  it('node size: the widest label line plus padding and border; one line height per line', () => {
    const one = nodeSize({ id: 'x', label: 'abcd', fontSize: 10, padding: 8 }, estimateMeasure);
    const two = nodeSize({ id: 'x', label: 'abcd\nabcdefgh', fontSize: 10, padding: 8 }, estimateMeasure);
    expect(one.w).toBe(24 + 16 + 3);
    expect(two.w).toBe(48 + 16 + 3);
    expect(two.h).toBeGreaterThan(one.h);
  });

  it('dagre left to right: every leaf gets a position, compound nodes none, each edge points rightwards', () => {
    const pos = computeLayout(layoutRequest(1, toElements(graph), { ...LAYOUT }));
    expect(Object.keys(pos).sort()).toEqual(['proxy:web-1.shop', 'svc:shop/a', 'svc:shop/b']);
    expect(pos['svc:shop/a']!.x).toBeGreaterThan(pos['proxy:web-1.shop']!.x);
    expect(pos['svc:shop/b']!.x).toBeGreaterThan(pos['svc:shop/a']!.x);
    for (const p of Object.values(pos)) expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
  });

  it('a layout that throws is answered with its error, not thrown (the canvas then lays out itself)', () => {
    const r = answer(
      { seq: 3, nodes: [{ id: 'a', label: 'a', fontSize: 11, padding: 8 }], edges: [], options: { name: 'no-such-layout' } },
      estimateMeasure,
    );
    expect(r.seq).toBe(3);
    expect(r.positions).toEqual({});
    expect(r.error).toMatch(/no-such-layout|layout/i);
  });

  it('large graphs leave dagre for fCoSE; parallel edges are one for the layout', () => {
    const nodes = Array.from({ length: DAGRE_MAX_WORK }, (_, i) => ({ id: `n${i}`, label: `n${i}`, fontSize: 11, padding: 8 }));
    const small = { nodes: nodes.slice(0, 10), edges: [], options: { ...LAYOUT } };
    expect(layoutOptionsFor(small)).toBe(small.options);
    const edges = [{ id: 'a', source: 'n0', target: 'n1' }];
    expect(layoutOptionsFor({ nodes, edges, options: { ...LAYOUT } }).name).toBe('fcose');
    // A caller's own non-dagre layout is kept whatever the size.
    expect(layoutOptionsFor({ nodes, edges, options: { name: 'grid' } })).toEqual({ name: 'grid' });
    expect(
      layoutEdges([
        { id: 'v1', source: 'p', target: 's' },
        { id: 'v2', source: 'p', target: 's' },
        { id: 'back', source: 's', target: 'p' },
      ]).map((e) => e.id),
    ).toEqual(['v1', 'back']);
  });

  it('fCoSE lays out a large compound graph: every leaf placed, distinct positions, members near their parent', () => {
    const nodes = [];
    const edges = [];
    for (let n = 0; n < 6; n++) {
      nodes.push({ id: `ns${n}`, label: `ns${n}`, fontSize: 11, padding: 8 });
      for (let i = 0; i < 20; i++) {
        nodes.push({ id: `ns${n}-s${i}`, parent: `ns${n}`, label: `svc-${i}`, fontSize: 11, padding: 8 });
        if (i > 0) edges.push({ id: `e${n}-${i}`, source: `ns${n}-s0`, target: `ns${n}-s${i}` });
      }
    }
    const pos = computeLayout({ seq: 1, nodes, edges, options: { ...LAYOUT } });
    const leaves = nodes.filter((n) => n.parent);
    expect(Object.keys(pos).sort()).toEqual(leaves.map((n) => n.id).sort());
    expect(new Set(Object.values(pos).map((p) => `${Math.round(p.x)},${Math.round(p.y)}`)).size).toBe(leaves.length);
    // Compound placement: each namespace's members sit closer to their own centre than to another's.
    const centre = (n: number) => {
      const ps = leaves.filter((l) => l.parent === `ns${n}`).map((l) => pos[l.id]!);
      return { x: ps.reduce((a, p) => a + p.x, 0) / ps.length, y: ps.reduce((a, p) => a + p.y, 0) / ps.length };
    };
    const d = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
    const c0 = centre(0);
    const c1 = centre(1);
    for (const l of leaves.filter((x) => x.parent === 'ns0')) expect(d(pos[l.id]!, c0)).toBeLessThan(d(pos[l.id]!, c1));
  });
});
