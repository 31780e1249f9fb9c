// Smoke: `meshscope serve` with the embedded demo mesh (examples/demo), in Chromium.
import { expect, test } from '@playwright/test';
import { HomePage } from './pages/HomePage';

// examples/demo: storefront ×2 and cart in shop; products v1–v3 and ratings v1–v2 in catalog;
// one ingress gateway (container istio-proxy running `proxy router`) in istio-system.
const DEMO = [
  // The demo data plane (server/demo): each storefront pod's client workloads connect to ADS with the pod's
  // node id and GENERATOR=grpc, so the table shows these pods as the proxyless gRPC clients they are.
  { app: 'storefront', namespace: 'shop', type: 'proxyless', count: 2 },
  { app: 'cart', namespace: 'shop', type: 'sidecar', count: 1 },
  { app: 'products', namespace: 'catalog', type: 'sidecar', count: 3 },
  { app: 'ratings', namespace: 'catalog', type: 'sidecar', count: 2 },
  // The proxies table says "gateway" for routers (the API and CLI keep Istio's "router").
  { app: 'istio-ingressgateway', namespace: 'istio-system', type: 'gateway', count: 1 },
  // examples/demo/50-ambient.yaml: the orders waypoint (its enrolled pods run no proxy).
  { app: 'waypoint', namespace: 'orders', type: 'waypoint', count: 1 },
];

test('the proxies page lists every demo proxy with its type and namespace', async ({ page }, info) => {
  const home = new HomePage(page);
  await home.goto();
  await expect(home.proxiesTable).toBeVisible();
  const ids = await home.proxyIds();
  expect(ids).toHaveLength(DEMO.reduce((n, d) => n + d.count, 0));
  for (const d of DEMO) {
    const mine = ids.filter((id) => id.startsWith(`${d.app}-`) && id.endsWith(`.${d.namespace}`));
    expect(mine, d.app).toHaveLength(d.count);
    await expect(home.row(mine[0]!).getByText(d.type, { exact: true })).toBeVisible();
  }
  await expect(home.sources).toContainText('demo');
  // serve passed --xds-port to the runtime, whose ADS server is listening on it.
  await expect(page.getByTestId('xds-state')).toContainText(`listening on :${process.env.E2E_XDS_PORT}`);
  // The page is subscribed to /api/events (server-sent events through Next's route handler).
  await expect(page.getByTestId('live-state')).toHaveText('● live');
  await page.screenshot({ path: info.outputPath('home.png'), fullPage: true });
});

// The proxy page itself (tabs, tables, raw dump, the 80/20 split) is covered by e2e/demo/proxy.spec.ts.

test('/debug/config_dump?proxyID= returns the ConfigDump JSON; unknown proxies are 404', async ({ page, request }, info) => {
  const proxies = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string; type: string }> };
  const gateway = proxies.proxies.find((p) => p.type === 'router')!;
  const res = await request.get(`/debug/config_dump?proxyID=${encodeURIComponent(gateway.id)}`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/json');
  const dump = (await res.json()) as { configs: unknown[] };
  expect(dump.configs).toHaveLength(4);
  expect((await request.get('/debug/config_dump?proxyID=nope.default')).status()).toBe(404);
  expect((await request.get('/debug/config_dump')).status()).toBe(400);
  await page.goto(`/debug/config_dump?proxyID=${encodeURIComponent(gateway.id)}&pretty`);
  await page.screenshot({ path: info.outputPath('config_dump.png') });
});

test('istiod debug endpoints answer in their shapes', async ({ request }) => {
  const registry = (await (await request.get('/debug/registryz')).json()) as Array<{ hostname: string }>;
  expect(registry.map((s) => s.hostname)).toContain('products.catalog.svc.cluster.local');
  const configs = (await (await request.get('/debug/configz')).json()) as Array<{ kind: string; metadata: { name: string } }>;
  // examples/demo: the VirtualServices of 30-traffic / 40-gateway / 50-ambient, and the one istiod's gateway conversion
  // makes of the GAMMA HTTPRoute orders/orders (name~port~host).
  expect(
    configs
      .filter((c) => c.kind === 'VirtualService')
      .map((c) => c.metadata.name)
      .sort(),
  ).toEqual(['orders~8080~orders.orders.svc.cluster.local', 'payments', 'products', 'ratings', 'storefront']);
  expect(Array.isArray(await (await request.get('/debug/syncz')).json())).toBe(true);
});
