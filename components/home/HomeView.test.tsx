// The home page body, rendered on the server with its initial data (as the page does before hydration).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ErrorsResponse, ProxiesResponse } from '@/components/data/fetchers';
import { HomeView } from './HomeView';

const proxies: ProxiesResponse = {
  version: 5,
  proxies: [
    { id: 'web-1.shop', type: 'sidecar', namespace: 'shop', labels: { app: 'web' }, ips: ['10.0.0.1'], counts: { listeners: 3, routes: 2, clusters: 7, endpoints: 5 }, errors: 0 },
    { id: 'gw-1.istio-system', type: 'router', namespace: 'istio-system', labels: { istio: 'ingressgateway' }, ips: ['10.0.0.2'], counts: { listeners: 1, routes: 1, clusters: 4, endpoints: 3 }, errors: 1 },
  ],
};

const render = (errors: ErrorsResponse) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <HomeView initialProxies={proxies} initialErrors={errors} />
    </QueryClientProvider>,
  );

describe('HomeView', () => {
  it('lists every proxy with a link, type, namespace and counts', () => {
    const html = render({ version: 5, errors: [], sources: [{ id: 'demo', kind: 'demo', state: 'connected' }], xds: { state: 'listening', port: 15010 } });
    expect(html).toContain('href="/proxies/web-1.shop"');
    expect(html).toContain('<span class="badge router">router</span>');
    expect(html).toMatch(/<td class="num">7<\/td>/);
    expect(html).toContain('No input errors.');
    expect(html).toContain('listening on :15010');
  });

  it('shows located input errors: file, doc, object, path, message', () => {
    const html = render({
      version: 5,
      errors: [{ severity: 'error', file: 'vs.yaml', doc: 2, object: 'VirtualService shop/web', path: 'spec.http[0].route[0].weight', message: 'expected number' }],
      sources: [],
      xds: { state: 'failing', error: 'ADS server could not listen on :15010' },
    });
    expect(html).toContain('data-testid="errors-table"');
    for (const cell of ['vs.yaml', '<td>2</td>', 'VirtualService shop/web', 'spec.http[0].route[0].weight', 'expected number']) expect(html).toContain(cell);
    expect(html).toContain('ADS server could not listen on :15010');
  });
});
