// Bookinfo (Istio's manifests + virtual-service-reviews-jason-v2-v3.yaml + destination-rule-all.yaml):
// productpage's sidecar route config, the source VirtualService rule behind a route, and a live change.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';

test.describe.configure({ mode: 'serial' });

const DIR = process.env.E2E_BOOKINFO_DIR!;
const JASON = join(DIR, 'networking', 'virtual-service-reviews-jason-v2-v3.yaml');
const fixtures = process.env.MESHSCOPE_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures');
const REVIEWS_VHOST = 'reviews.default.svc.cluster.local:9080';
const v = (subset: string) => `outbound|9080|${subset}|reviews.default.svc.cluster.local`;

async function productpage(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  return body.proxies.find((p) => p.id.startsWith('productpage-'))!.id;
}

test('routes: the jason header route and the default route, each opening its VirtualService rule', async ({ page, request }, info) => {
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  await proxy.goto(id, 'tab=routes');
  await expect(proxy.heading).toHaveText(id);
  // Sidecar route config named by port (9080), vhost `<fqdn>:<port>` (httproute.go BuildSidecarOutboundVirtualHosts).
  await proxy.filter('routes', 'vhost', REVIEWS_VHOST);
  await expect(proxy.count('routes')).toHaveText(/^2 of \d+ rows$/);
  // route.go: http[0] (header end-user exact jason) → v2, then http[1] (no match = prefix /) → v3.
  const jason = proxy.row('routes', `9080/${REVIEWS_VHOST}/0`);
  const rest = proxy.row('routes', `9080/${REVIEWS_VHOST}/1`);
  await expect(jason).toContainText('/* with end-user=jason');
  await expect(jason).toContainText(v('v2'));
  await expect(rest).toContainText(v('v3'));
  await expect(jason).toContainText('VirtualService default/reviews');

  await jason.click();
  await expect(page).toHaveURL(/route=9080%2Freviews/);
  await expect(proxy.sourceObject).toContainText('VirtualService default/reviews');
  await expect(page.getByTestId('source-rule')).toContainText('spec.http[0].match[0]');
  await expect(page.getByTestId('source-rule-yaml')).toContainText('exact: jason');
  await page.screenshot({ path: info.outputPath('route-source-jason.png'), fullPage: true });

  await rest.click();
  await expect(page.getByTestId('source-rule')).toContainText('spec.http[1]');
  await expect(page.getByTestId('source-rule-yaml')).toContainText('subset: v3');

  // The deep link reopens the same route and panel.
  await page.reload();
  await expect(page.getByTestId('source-rule')).toContainText('spec.http[1]');
});

test('live: replacing the VirtualService file with Istio 90-10 shows the weighted split without a reload', async ({
  page,
  request,
}, info) => {
  const original = readFileSync(JASON, 'utf8');
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  await proxy.goto(id, `tab=routes&vhost=${encodeURIComponent(REVIEWS_VHOST)}`);
  await expect(page.getByTestId('live-state')).toHaveText('● live');
  await expect(proxy.row('routes', `9080/${REVIEWS_VHOST}/0`)).toContainText('end-user=jason');
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  try {
    // Same object (VirtualService default/reviews), new spec: Istio's virtual-service-reviews-90-10.yaml.
    writeFileSync(JASON, readFileSync(join(fixtures, 'istio-bookinfo', 'networking', 'virtual-service-reviews-90-10.yaml'), 'utf8'));
    const row = proxy.row('routes', `9080/${REVIEWS_VHOST}/0`);
    // Envoy WeightedCluster: share = weight / sum of weights → 90% and 10%.
    await expect(row).toContainText(`${v('v1')} 90%`, { timeout: 15_000 });
    await expect(row).toContainText(`${v('v2')} 10%`);
    await expect(proxy.count('routes')).toHaveText(/^1 of \d+ rows$/);
    await expect(proxy.changeBanner).toBeVisible();
    await expect(row).toHaveClass(/vt-changed/);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await page.screenshot({ path: info.outputPath('live-90-10.png'), fullPage: true });
    await row.click();
    await expect(proxy.routePanel).toContainText('90%');
    // The source panel shows the VirtualService as it is now (http[0] of the 90-10 file).
    await expect(page.getByTestId('source-rule')).toContainText('spec.http[0]');
    await expect(page.getByTestId('source-rule-yaml')).toContainText('weight: 90');
  } finally {
    writeFileSync(JASON, original);
  }
  await expect(proxy.row('routes', `9080/${REVIEWS_VHOST}/0`)).toContainText('end-user=jason', { timeout: 15_000 });
});

test('clusters: istioctl-style filters, DestinationRule column, keyboard selection', async ({ page, request }, info) => {
  const id = await productpage(request);
  const proxy = new ProxyPage(page);
  await proxy.goto(id, 'tab=clusters');
  await proxy.filter('clusters', 'fqdn', 'reviews.default');
  // destination-rule-all.yaml: reviews has subsets v1, v2, v3 → outbound|9080||, v1, v2, v3.
  await expect(proxy.count('clusters')).toHaveText(/^4 of \d+ rows$/);
  await proxy.filter('clusters', 'subset', 'v2');
  await expect(proxy.count('clusters')).toHaveText(/^1 of \d+ rows$/);
  const row = proxy.row('clusters', v('v2'));
  await expect(row).toContainText('default/reviews');
  await expect(page).toHaveURL(/fqdn=reviews.default&subset=v2/);
  await proxy.grid('clusters').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(proxy.clusterPanel).toContainText(v('v2'));
  await expect(proxy.sourceObject).toContainText('DestinationRule default/reviews');
  await page.screenshot({ path: info.outputPath('clusters.png'), fullPage: true });
});
