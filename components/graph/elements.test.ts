import { describe, expect, it } from 'vitest';
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { edgeWidth, LIGHT, nodeLabel, shortEdgeLabel, stylesheet, toElements } from './elements';

const proxy: MeshNode = {
  id: 'proxy:web-1.shop',
  kind: 'proxy',
  label: 'web-1',
  namespace: 'shop',
  parent: 'wl:shop/Deployment/web',
  badges: [],
  proxyId: 'web-1.shop',
  proxyType: 'sidecar',
};
const svc: MeshNode = {
  id: 'svc:shop/r',
  kind: 'service',
  label: 'reviews',
  namespace: 'shop',
  badges: [
    { kind: 'vs', text: 'VS 1' },
    { kind: 'subsets', text: 'subsets 2' },
  ],
  hostname: 'r',
};
const split = (percent: number): MeshEdge => ({
  id: `e${percent}`,
  kind: 'route',
  source: proxy.id,
  target: svc.id,
  label: `reviews http[0] → v1 ${percent}%`,
  percent,
  split: true,
  subset: 'v1',
});

describe('toElements', () => {
  it('nodes carry kind, parent, badge classes and a link for proxies', () => {
    const [p, s] = toElements({ nodes: [proxy, svc], edges: [] });
    expect(p).toEqual({
      group: 'nodes',
      data: { id: proxy.id, label: 'web-1', kind: 'proxy', parent: 'wl:shop/Deployment/web', href: '/proxies/web-1.shop' },
      classes: 'proxy',
    });
    expect(s!.classes).toBe('service badge-vs badge-subsets');
    expect((s!.data as { label: string }).label).toBe('reviews\n[VS 1] [subsets 2]');
  });

  it('recently changed proxies get the `changed` class', () => {
    expect(toElements({ nodes: [proxy], edges: [] }, new Set(['web-1.shop']))[0]!.classes).toBe('proxy changed');
  });

  it('split edges are labelled with their share and wider the larger it is', () => {
    const [a, b] = toElements({ nodes: [], edges: [split(80), split(20)] });
    expect((a!.data as { label: string }).label).toBe('v1 80%');
    expect((a!.data as { full: string }).full).toBe('reviews http[0] → v1 80%');
    expect(a!.classes).toBe('route split');
    expect((a!.data as { width: number }).width).toBeGreaterThan((b!.data as { width: number }).width);
  });

  it('edge width: 100% share is 7px, 0% is 1.5px; unsplit routes 2.5px; other edges 1.5px', () => {
    expect(edgeWidth({ kind: 'route', percent: 100, split: true })).toBe(7);
    expect(edgeWidth({ kind: 'route', percent: 0, split: true })).toBe(1.5);
    expect(edgeWidth({ kind: 'route', percent: 100, split: false })).toBe(2.5);
    expect(edgeWidth({ kind: 'endpoint' })).toBe(1.5);
  });

  it('short edge labels: none for endpoint/default edges, the subset for a whole-rule route, `mirror` for mirrors', () => {
    const d: MeshEdge = { id: 'd', kind: 'default', source: 'a', target: 'b', label: 'default' };
    expect(shortEdgeLabel(d)).toBe('');
    expect(shortEdgeLabel({ ...split(100), split: false, subset: 'v2' })).toBe('v2');
    expect(shortEdgeLabel({ ...split(100), kind: 'mirror' })).toBe('mirror');
  });

  it('nodeLabel without badges is the name', () => {
    expect(nodeLabel(proxy)).toBe('web-1');
  });

  it('the stylesheet uses the palette it is given', () => {
    const s = stylesheet({ ...LIGHT, accent: '#123456' });
    expect(s.find((r) => r.selector === 'edge.route')!.style['line-color']).toBe('#123456');
  });
});
