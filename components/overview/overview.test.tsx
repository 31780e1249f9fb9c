// Overview building blocks rendered on the server: counts, routes table (grouped edges), source banner.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { SourceBanner, bannerTone, sourceLabel } from '@/components/layout/SourceBanner';
import { CountsBar } from './CountsBar';
import { routeRows, RoutesList } from './RoutesList';

const nodes: MeshNode[] = [
  { id: 'proxy:a.shop', kind: 'proxy', label: 'a', namespace: 'shop', badges: [], proxyId: 'a.shop' },
  { id: 'proxy:b.shop', kind: 'proxy', label: 'b', namespace: 'shop', badges: [], proxyId: 'b.shop' },
  { id: 'svc:r', kind: 'service', label: 'reviews', namespace: 'shop', badges: [], hostname: 'reviews.shop.svc.cluster.local' },
];
const route = (src: string, subset: string, percent: number): MeshEdge => ({
  id: `${src}${subset}`,
  kind: 'route',
  source: src,
  target: 'svc:r',
  label: '',
  percent,
  split: true,
  subset,
  virtualService: 'shop/reviews',
  rule: 'http[0]',
  match: 'any',
});

describe('routeRows', () => {
  it('groups the same rule destination from several proxies into one row listing them', () => {
    const rows = routeRows([route('proxy:a.shop', 'v1', 80), route('proxy:b.shop', 'v1', 80), route('proxy:a.shop', 'v2', 20)], nodes);
    expect(rows.map((r) => [r.subset, r.percent, r.proxies])).toEqual([
      ['v1', 80, ['a.shop', 'b.shop']],
      ['v2', 20, ['a.shop']],
    ]);
    expect(rows[0]!.target).toBe('reviews.shop.svc.cluster.local');
  });

  it('ignores endpoint and default edges', () => {
    expect(routeRows([{ id: 'x', kind: 'default', source: 'proxy:a.shop', target: 'svc:r', label: '' }], nodes)).toEqual([]);
  });
});

describe('RoutesList', () => {
  it('shows the split percentage and links the source proxies', () => {
    const html = renderToStaticMarkup(<RoutesList rows={routeRows([route('proxy:a.shop', 'v1', 80)], nodes)} />);
    expect(html).toContain('<span class="weight">80%</span>');
    expect(html).toContain('href="/proxies/a.shop"');
    expect(html).toContain('shop/reviews http[0]');
  });

  it('says what to do when there are no VirtualService routes', () => {
    expect(renderToStaticMarkup(<RoutesList rows={[]} />)).toContain('Add a VirtualService');
  });
});

describe('CountsBar', () => {
  it('renders every count', () => {
    const html = renderToStaticMarkup(
      <CountsBar
        counts={{
          namespaces: 3,
          services: 4,
          workloads: 5,
          proxies: 6,
          pods: 0,
          virtualServices: 2,
          destinationRules: 1,
          gateways: 1,
          serviceEntries: 0,
          routeEdges: 9,
        }}
      />,
    );
    expect(html).toContain('<li data-count="proxies"><strong>6</strong>proxies</li>');
    expect(html).toContain('<li data-count="routeEdges"><strong>9</strong>routed edges</li>');
  });
});

describe('SourceBanner', () => {
  it('names the source kind and state, the ADS port and the error count', () => {
    const html = renderToStaticMarkup(
      <SourceBanner
        sources={[{ id: 'file', kind: 'file', state: 'failing', lastError: 'ENOENT: /nope' }]}
        xds={{ state: 'listening', port: 15010 }}
        errorCount={2}
        version={7}
      />,
    );
    expect(html).toContain('class="source-banner tone-fail"');
    expect(html).toContain('<strong>files</strong>');
    expect(html).toContain('ENOENT: /nope');
    expect(html).toContain('listening on :15010');
    expect(html).toContain('2 input errors');
    expect(html).toContain('snapshot v7');
  });

  it('the embedded demo (a file source with id demo) reads as the demo mesh', () => {
    expect(sourceLabel({ id: 'demo', kind: 'file' })).toBe('demo mesh');
    expect(sourceLabel({ id: 'kube', kind: 'kube' })).toBe('cluster');
  });

  it('tone: ok when connected and clean, warn on input errors, fail when ADS cannot listen', () => {
    const demo = [{ id: 'demo', kind: 'demo' as const, state: 'connected' as const }];
    expect(bannerTone(demo, { state: 'listening', port: 1 }, 0)).toBe('ok');
    expect(bannerTone(demo, { state: 'listening', port: 1 }, 1)).toBe('warn');
    expect(bannerTone(demo, { state: 'failing', error: 'EADDRINUSE' }, 0)).toBe('fail');
  });
});
