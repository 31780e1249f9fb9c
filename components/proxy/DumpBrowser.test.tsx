// The dump browser rendered on the server from a real Envoy dump: tabs with counts, the tab chosen by
// the URL, and the route deep link opening the route panel.
import { readFileSync } from 'node:fs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { configDumpFixture } from '@/server/testing/paths';

let search = '';
vi.mock('next/navigation', () => ({ useSearchParams: () => new URLSearchParams(search) }));
const { DumpBrowser } = await import('./DumpBrowser');

const dump = JSON.parse(readFileSync(configDumpFixture('gateway-routes-config_dump.json'), 'utf8')) as unknown;
const render = (qs: string) => {
  search = qs;
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <DumpBrowser proxyId={null} dump={dump} downloadName="d.json" />
    </QueryClientProvider>,
  );
};

describe('DumpBrowser', () => {
  it('opens the tab named in the URL and shows counts on every table tab', () => {
    const html = render('tab=routes');
    expect(html).toContain('data-testid="panel-routes"');
    // RoutesConfigDump: two static (bootstrap) route configs with one route each + http.8080
    expect(html).toMatch(/Routes<span class="count">3<\/span>/);
    expect(new Set(html.match(/data-key="[^"]*"/g)).size).toBe(3);
    expect(html).toMatch(/Listeners<span class="count">0<\/span>/);
    expect(html).toContain('/get*');
  });

  it('a route deep link selects the row and shows its panel with the human match', () => {
    const html = render('tab=routes&route=' + encodeURIComponent('http.8080/httpbin.example.com:80/0'));
    expect(html).toContain('data-testid="route-panel"');
    expect(html).toMatch(/data-testid="route-match">\/get\*</);
  });

  it('empty tables say what to do', () => {
    expect(render('tab=listeners')).toContain('No listeners in this config.');
  });
});
