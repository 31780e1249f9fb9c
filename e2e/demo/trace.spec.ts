// Tracing storefront → products in the demo mesh: the route has weighted clusters, so the trace lists
// both with their probabilities (weight / sum of weights: 80% v1, 20% v2; examples/demo/30-traffic.yaml).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';
import { TracePanel } from '../pages/TracePanel';

async function storefront(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  return body.proxies.find((p) => p.id.startsWith('storefront-'))!.id;
}

test('weighted clusters are listed with their probabilities and both drawn on the path', async ({ page, request }, info) => {
  const id = await storefront(request);
  const proxy = new ProxyPage(page);
  const trace = new TracePanel(page);
  await proxy.goto(id, 'tab=trace&host=products.catalog:9080&path=/products/7');
  await expect(trace.clusters).toHaveCount(2);
  await expect(trace.clusters.nth(0)).toContainText('outbound|9080|v1|products.catalog.svc.cluster.local');
  await expect(trace.clusters.nth(0)).toContainText('80% of requests');
  await expect(trace.clusters.nth(1)).toContainText('20% of requests');
  await expect(trace.subsets).toHaveText(['subset v1', 'subset v2']);
  await trace.layoutDone();
  const onPath = await page.evaluate(() => {
    const cy = (window as unknown as { __routeCy: { nodes: (s: string) => { map: (f: (n: { id: () => string }) => string) => string[] } } })
      .__routeCy;
    return cy.nodes('.on-path').map((n) => n.id());
  });
  expect(onPath).toContain('cluster:outbound|9080|v1|products.catalog.svc.cluster.local');
  expect(onPath).toContain('cluster:outbound|9080|v2|products.catalog.svc.cluster.local');
  await page.screenshot({ path: info.outputPath('trace-weighted.png'), fullPage: true });
});
