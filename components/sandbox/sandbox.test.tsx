// Sandbox components rendered on the server (CodeMirror and cytoscape are browser-only; these check the
// form helpers read from the YAML, the blast radius, the route changes and the request-check outcomes).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProxySummary } from '@/server/api/proxies';
import type { ProxyDiff, RequestCheckResult } from '@/server/sandbox/types';
import { FormHelpers } from './FormHelpers';
import { readForm } from './model/form';
import { BlastRadius } from './results/BlastRadius';
import { ChecksPanel } from './results/ChecksPanel';
import { ProxyDiffPanel } from './results/ProxyDiffPanel';

const wrap = (n: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{n}</QueryClientProvider>);
const VS = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts:
  - reviews
  http:
  - route:
    - destination:
        host: reviews
        subset: v1
      weight: 80
    - destination:
        host: reviews
        subset: v2
      weight: 20
`;
const C = (s: string) => `outbound|9080|${s}|reviews.default.svc.cluster.local`;

describe('FormHelpers', () => {
  it('shows the YAML’s weights on the sliders and offers the next known subset', () => {
    const html = wrap(<FormHelpers text={VS} doc={0} form={readForm(VS, 0)} onText={() => {}} subsetsFor={() => ['v1', 'v2', 'v3']} />);
    expect(html.match(/type="range"[^>]*value="(\d+)"/g)?.map((m) => m.replace(/.*value="/, '').replace('"', ''))).toEqual(['80', '20']);
    expect(html).toContain('+ destination (reviews v3)');
  });
  it('says so when the document does not parse', () => {
    expect(wrap(<FormHelpers text="a: [" doc={0} form={undefined} onText={() => {}} subsetsFor={() => []} />)).toContain('parses again');
  });
});

describe('results', () => {
  it('blast radius lists proxies, marks gateways and unverified ones, and shows the stats', () => {
    const html = wrap(
      <BlastRadius
        entries={[
          { proxy: 'a.default', type: 'sidecar', namespace: 'default', types: ['routes'], summary: ['weights v1 80/v2 20 → 50/50'] },
          { proxy: 'gw.istio-system', type: 'router', namespace: 'istio-system', types: ['routes'], summary: [], unverified: true },
        ]}
        stats={{ proxies: 9, translated: 4, candidates: 2, ms: 12 }}
        selected="a.default"
        onSelect={() => {}}
      />,
    );
    expect(html).toContain('2 of 9 proxies change');
    expect(html).toContain('4 translated');
    expect(html).toContain('gateway');
    expect(html).toContain('unverified');
    expect(html).toContain('weights v1 80/v2 20 → 50/50');
  });

  it('route changes show weights old → new with short cluster names', () => {
    const diff: ProxyDiff = {
      proxy: 'a.default',
      summary: ['route `default` on vhost reviews: weights'],
      virtualHosts: [],
      routes: [
        {
          change: 'changed',
          routeConfig: '9080',
          virtualHost: 'reviews.default.svc.cluster.local:9080',
          route: 'default',
          detail: 'weights v1 80/v2 20 → v1 50/v2 50',
          weights: { before: { [C('v1')]: 80, [C('v2')]: 20 }, after: { [C('v1')]: 50, [C('v2')]: 50 } },
          source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[0]' },
        },
      ],
      resources: [],
    };
    const html = wrap(<ProxyDiffPanel diff={diff} hosts={['reviews']} />);
    expect(html).toContain(
      'reviews.default v1 80 / reviews.default v2 20 → <span class="weight">reviews.default v1 50 / reviews.default v2 50</span>',
    );
    expect(html).toContain('default/reviews http[0]');
  });

  it('a request check shows live and draft distributions side by side', () => {
    const proxies = [
      { id: 'pp.default', type: 'sidecar', namespace: 'default', labels: { app: 'productpage' }, ips: [] },
    ] as unknown as ProxySummary[];
    const check = {
      name: 'productpage → GET reviews:9080/reviews/1',
      proxy: 'pp.default',
      request: { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/reviews/1' },
    };
    const result: RequestCheckResult = {
      check,
      live: { result: { rejected: [], cluster: C('v1') }, distribution: { [C('v1')]: 100 } },
      draft: {
        result: { rejected: [], weightedClusters: { [C('v1')]: 50, [C('v2')]: 50 } },
        distribution: { [C('v1')]: 50, [C('v2')]: 50 },
      },
      changed: true,
    };
    const html = wrap(<ChecksPanel checks={[check]} results={[result]} proxies={proxies} onChange={() => {}} />);
    expect(html).toContain('data-distribution="{&quot;reviews.default v1&quot;:100}"');
    expect(html).toContain('data-distribution="{&quot;reviews.default v1&quot;:50,&quot;reviews.default v2&quot;:50}"');
    expect(html).toContain('changed');
  });

  it('under the ambient profile: ambient pods are offered as sources, and each side says whether it goes through a waypoint', () => {
    const check = {
      proxy: 'productpage-v1-x.bookinfo',
      request: { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/reviews/0' },
    };
    const trace = (used: boolean) => ({
      source: { workload: 'bookinfo/productpage-v1-x', kind: 'ambient' as const },
      destination: { port: 9080 },
      waypoint: used ? { used, name: 'bookinfo/waypoint' } : { used, reason: 'NoUseWaypoint', message: 'no istio.io/use-waypoint label' },
      hops: [],
    });
    const result: RequestCheckResult = {
      check,
      live: { result: { rejected: [], ambient: trace(false) } },
      draft: { result: { rejected: [], ambient: trace(true) }, distribution: { [C('v1')]: 100 } },
      changed: true,
    };
    const html = wrap(
      <ChecksPanel checks={[check]} results={[result]} proxies={[]} ambientPods={['productpage-v1-x.bookinfo']} onChange={() => {}} />,
    );
    expect(html).toContain('<optgroup label="ambient pods (through ztunnel)"><option value="productpage-v1-x.bookinfo">');
    expect(html).toContain('bypasses waypoints (NoUseWaypoint)');
    expect(html).toContain('via waypoint bookinfo/waypoint');
  });
});
