import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProxySummary } from '@/server/api/contract';
import { ProxiesTable } from './ProxiesTable';
import { proxyRows } from './rows';

const counts = { listeners: 3, routes: 2, clusters: 7, endpoints: 5 };
const proxies: ProxySummary[] = [
  { id: 'web-1.shop', type: 'sidecar', namespace: 'shop', labels: { app: 'web' }, ips: ['10.0.0.1'], counts, errors: 0 },
  { id: 'gw-1.istio-system', type: 'router', namespace: 'istio-system', labels: {}, ips: ['10.0.0.2'], counts, errors: 2 },
];
const rows = proxyRows(proxies, [
  {
    proxy: 'web-1.shop',
    sync: { cluster: 'SYNCED', listener: 'ERROR', route: 'SYNCED', endpoint: 'SYNCED' },
    nacks: { listener: { nonce: 'a', version: '4', code: 3, message: 'bad listener', time: 't' } },
  },
]);
const withQueries = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
const html = withQueries(
  <ProxiesTable rows={rows} changed={new Set(['gw-1.istio-system'])} onOpen={() => undefined} version={1} driftIds={new Set()} />,
);

describe('ProxiesTable', () => {
  it('one focusable row per proxy with a link, type and counts', () => {
    expect(html.match(/<tr data-proxy-id=/g)).toHaveLength(2);
    expect(html).toContain('href="/proxies/web-1.shop"');
    expect(html).toContain('tabindex="0"');
    expect(html).toMatch(/<span class="badge router"[^>]*>gateway<\/span>/);
    expect(html).toMatch(/<td class="num">7<\/td>/);
  });

  it('connected proxies show each type’s sync state, the NACK text as the ERROR badge’s tooltip', () => {
    expect(html).toContain('title="NACK of version 4: bad listener">LDS ERROR</span>');
    expect(html).toContain('CDS SYNCED');
  });

  it('the drift column is not fetched for rows out of view (no request, no blocking)', () => {
    expect(html.match(/data-testid="drift-cell" data-drift="not-fetched"/g)).toHaveLength(2);
  });

  it('computed-only proxies say "not connected"; a recently changed row is highlighted', () => {
    expect(html).toMatch(/<tr data-proxy-id="gw-1.istio-system" tabindex="0" class="changed"/);
    expect(html).toContain('not connected');
  });
});

describe('ProxiesTable count cells', () => {
  it('a computed proxy without counts yet shows a pending cell, not a dash', () => {
    const bare = proxyRows([{ id: 'x.big', type: 'sidecar', namespace: 'big', labels: {}, ips: [] }], []);
    const out = withQueries(<ProxiesTable rows={bare} changed={new Set()} onOpen={() => undefined} version={1} driftIds={new Set()} />);
    expect(out.match(/data-testid="count-pending"/g)).toHaveLength(4);
    expect(out).not.toMatch(/<td class="num">—<\/td>/);
  });
});
