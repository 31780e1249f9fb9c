// Trace a request from productpage's sidecar under virtual-service-reviews-jason-v2-v3.yaml:
// http[0] (header end-user exact jason) → subset v2; http[1] (no match) → v3 (Istio route.go: one Envoy
// route per http rule, in order; Envoy takes the first route that matches).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';
import { TracePanel } from '../pages/TracePanel';

const v = (subset: string) => `outbound|9080|${subset}|reviews.default.svc.cluster.local`;

async function productpage(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  return body.proxies.find((p) => p.id.startsWith('productpage-'))!.id;
}

test('GET /reviews/1 to reviews:9080 with end-user: jason goes to subset v2, and the trace is a link', async ({ page, request }, info) => {
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  const trace = new TracePanel(page);
  await proxy.goto(id, 'tab=trace');
  await expect(page.getByTestId('trace-empty')).toBeVisible();
  await trace.trace({ host: 'reviews:9080', path: '/reviews/1', headers: ['end-user: jason'] });
  await expect(trace.hop('listener')).toContainText('0.0.0.0_9080');
  await expect(trace.hop('routeConfig')).toContainText('9080');
  await expect(trace.hop('virtualHost')).toContainText('reviews.default.svc.cluster.local:9080');
  await expect(trace.hop('route')).toContainText('#0');
  await expect(trace.clusters).toHaveCount(1);
  await expect(trace.clusters.first()).toHaveAttribute('data-cluster', v('v2'));
  await expect(trace.subsets).toHaveText(['subset v2']);
  await expect(trace.hop('endpoints')).toContainText(':9080');
  await expect(trace.error).toHaveCount(0);
  // The form is in the URL (?tab=trace&host=…&h=end-user:jason).
  await expect(page).toHaveURL(/tab=trace/);
  await expect(page).toHaveURL(/h=end-user%3Ajason/);
  // Highlighted on the route graph: the traced virtual host, the taken route.
  await trace.layoutDone();
  await expect(trace.routeRow('taken')).toHaveCount(1);
  await expect(trace.routeRow('taken')).toContainText(v('v2'));
  await page.screenshot({ path: info.outputPath('trace-jason-v2.png'), fullPage: true });

  // The link alone reproduces the trace.
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await expect(trace.subsets).toHaveText(['subset v2']);
});

test('without the header: subset v3, with the header route listed as rejected (header absent)', async ({ page, request }, info) => {
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  const trace = new TracePanel(page);
  await proxy.goto(id, 'tab=trace&host=reviews:9080&path=/reviews/1');
  await expect(trace.subsets).toHaveText(['subset v3']);
  await expect(trace.clusters.first()).toHaveAttribute('data-cluster', v('v3'));
  await expect(trace.hop('route')).toContainText('#1');
  const rejectedRoute = trace.rejectedAt('route');
  await expect(rejectedRoute).toHaveCount(1);
  await expect(rejectedRoute).toHaveAttribute('data-index', '0');
  await expect(rejectedRoute).toContainText('header end-user absent');
  await expect(rejectedRoute).toContainText('end-user exact "jason"');
  // The other virtual hosts of route config 9080 were passed over by domain.
  await expect(trace.rejectedAt('virtualHost').first()).toContainText('domain does not match');
  await trace.layoutDone();
  await expect(trace.routeRow('rejected')).toContainText('header end-user absent');
  // Selecting the taken route on the graph's list opens its details with the source VirtualService rule.
  await trace.routeRow('taken').click();
  await expect(trace.details).toContainText('VirtualService');
  await expect(page.getByTestId('graph-source-rule')).toContainText('spec.http[1]');
  await page.screenshot({ path: info.outputPath('trace-no-header-v3.png'), fullPage: true });
});

test("a request nobody serves answers in Istio's wording", async ({ page, request }, info) => {
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  const trace = new TracePanel(page);
  await proxy.goto(id, 'tab=trace&mode=inbound&port=9999&host=nothing');
  await expect(trace.result).toBeVisible();
  await proxy.goto(id, 'tab=trace&mode=gateway&port=9999&host=nothing');
  await expect(trace.error).toHaveText('✗ no listener matched');
  await page.screenshot({ path: info.outputPath('trace-no-listener.png'), fullPage: true });
});
