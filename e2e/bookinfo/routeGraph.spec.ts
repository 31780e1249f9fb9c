// The route graph: productpage's sidecar (reviews' header route and default route, their subsets and
// endpoints) and the ingress gateway (bookinfo-gateway.yaml → route config http.8080, Istio's gateway
// route name for port 8080).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DumpPage } from '../pages/DumpPage';
import { ProxyPage } from '../pages/ProxyPage';
import { TracePanel } from '../pages/TracePanel';

test.describe.configure({ mode: 'serial' });

async function proxyId(request: APIRequestContext, prefix: string): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  return body.proxies.find((p) => p.id.startsWith(prefix))!.id;
}

test('sidecar: listener → 9080 → reviews vhost → routes → v2 / v3 subsets → endpoints; clicking a route shows its JSON and source', async ({
  page,
  request,
}, info) => {
  const id = await proxyId(request, 'productpage-');
  const proxy = new ProxyPage(page);
  const g = new TracePanel(page);
  await proxy.goto(id, `tab=graph&rc=9080&vh=${encodeURIComponent('reviews.default.svc.cluster.local:9080')}`);
  await g.layoutDone();
  // Listeners bound to 9080 → route config → vhost → 2 routes → 2 subset clusters → their endpoints.
  const nodes = Number(await g.canvas.getAttribute('data-node-count'));
  expect(nodes).toBeGreaterThanOrEqual(1 + 1 + 2 + 2 + 2);
  await expect(g.routeList.locator('tbody tr')).toHaveCount(2);
  await expect(g.routeList.locator('tbody tr').nth(0)).toContainText('outbound|9080|v2|reviews.default.svc.cluster.local');
  await expect(g.routeList.locator('tbody tr').nth(1)).toContainText('outbound|9080|v3|reviews.default.svc.cluster.local');
  await g.routeList.locator('tbody tr').nth(0).click();
  await expect(page).toHaveURL(/node=route/);
  await expect(g.details).toContainText('end-user');
  await expect(page.getByTestId('graph-node-json')).toContainText('"exact": "jason"');
  await expect(page.getByTestId('graph-source-rule')).toContainText('spec.http[0]');
  await page.screenshot({ path: info.outputPath('route-graph-sidecar.png'), fullPage: true });
});

test('gateway: the route graph exists for istio-ingressgateway', async ({ page, request }, info) => {
  const id = await proxyId(request, 'istio-ingressgateway-');
  const proxy = new ProxyPage(page);
  const g = new TracePanel(page);
  await proxy.goto(id, 'tab=graph');
  await g.layoutDone();
  expect(Number(await g.canvas.getAttribute('data-node-count'))).toBeGreaterThan(3);
  await expect(page.getByTestId('graph-filter-rc').locator('option', { hasText: 'http.8080' })).toHaveCount(1);
  // bookinfo-gateway.yaml's VirtualService: /productpage → productpage:9080.
  await expect(g.routeList).toContainText('path /productpage');
  await expect(g.routeList).toContainText('outbound|9080||productpage.default.svc.cluster.local');
  await page.screenshot({ path: info.outputPath('route-graph-gateway.png'), fullPage: true });
});

test('uploaded dump (real gateway routes dump): the graph draws http.8080 and the trace runs on the dump', async ({ page }, info) => {
  const fixtures = process.env.MESHSCOPE_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures');
  const dump = new DumpPage(page);
  const g = new TracePanel(page);
  await dump.open();
  await dump.upload(join(fixtures, 'envoy-config-dumps', 'gateway-routes-config_dump.json'));
  await dump.openTab('graph');
  await g.layoutDone();
  await expect(g.routeList).toContainText('prefix /get');
  await g.routeList.locator('tbody tr', { hasText: 'prefix /get' }).click();
  // Provenance filter_metadata.istio.config → VirtualService default/httpbin (no object behind an upload).
  await expect(page.getByTestId('graph-source')).toContainText('VirtualService default/httpbin');
  await page.screenshot({ path: info.outputPath('route-graph-uploaded-gateway.png'), fullPage: true });
  // The dump holds routes only: Istio's simulator answers "no listener matched".
  await dump.openTab('trace');
  await g.trace({ mode: 'gateway', host: 'httpbin.example.com', port: '8080', path: '/get' });
  await expect(g.error).toHaveText('✗ no listener matched');
});

// Istio keeps every http rule with a match (route.go BuildHTTPRoutesForVirtualService stops only after a
// catch-all), so an earlier, more general prefix makes a later one dead: Envoy takes the first match.
const SHADOWED_VS = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ratings-shadowed
  namespace: default
spec:
  hosts:
  - ratings
  http:
  - match:
    - uri:
        prefix: /ratings
    route:
    - destination:
        host: ratings
        subset: v1
  - match:
    - uri:
        prefix: /ratings/v2
    route:
    - destination:
        host: ratings
        subset: v2
  - route:
    - destination:
        host: ratings
        subset: v1
`;

test('a route that can never match is drawn dashed with the reason', async ({ page, request }, info) => {
  const file = join(process.env.E2E_BOOKINFO_DIR!, 'ratings-shadowed.yaml');
  writeFileSync(file, SHADOWED_VS);
  try {
    const id = await proxyId(request, 'productpage-');
    const proxy = new ProxyPage(page);
    const g = new TracePanel(page);
    const url = `tab=graph&rc=9080&vh=${encodeURIComponent('ratings.default.svc.cluster.local:9080')}`;
    await expect(async () => {
      await proxy.goto(id, url);
      await expect(g.routeList.locator('tbody tr')).toHaveCount(3, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await g.layoutDone();
    await expect(g.graph).toHaveAttribute('data-shadowed-count', '1');
    const dead = g.routeRow('shadowed');
    await expect(dead).toHaveCount(1);
    await expect(dead).toContainText('prefix /ratings/v2');
    await expect(dead).toContainText('route #0 before it matches every request this one would');
    await dead.click();
    await expect(page.getByTestId('graph-shadowed-reason')).toContainText('never matches');
    await expect(page.getByTestId('graph-source-rule')).toContainText('spec.http[1]');
    await page.screenshot({ path: info.outputPath('route-graph-shadowed.png'), fullPage: true });
  } finally {
    rmSync(file, { force: true });
  }
});
