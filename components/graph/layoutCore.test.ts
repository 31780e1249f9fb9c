import { describe, expect, it } from 'vitest';
import type { MeshNode } from '@/server/api/contract';
import { LAYOUT, toElements } from './elements';
import { layoutRequest } from './layoutClient';
import { answer, computeLayout, estimateMeasure, nodeSize } from './layoutCore';

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
      fontSize: 11,
      padding: 14,
    });
    expect(req.nodes.find((n) => n.id === 'svc:shop/a')).toMatchObject({ fontSize: 11, padding: 8, parent: 'ns:shop' });
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
});
