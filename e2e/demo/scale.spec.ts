// Scale: a generated mesh where every service has its Deployments (bench/generateMesh.ts: 3,334 services ×
// v1 + v2 = 6,668 sidecar proxies, each with 10,000+ clusters: default + 2 subsets per service). The server
// must not translate every proxy for the list or for live updates (impact/affected.ts, api/proxies.ts):
// a 10,000-cluster proxy page opens, scrolls and filters; a file change while it is open reaches it; the
// proxies page lists every proxy and counts the rows in view lazily. Runs its own `meshscope serve` on the
// generated directory (started here, stopped by process group), from its own build directory
// (`<dist>-scale`) so a rebuild it may need never replaces the chunks of the project servers already running.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { firstProxy, serveDir, SERVICES_FOR_10K_CLUSTERS, writeSyntheticMesh, type Served } from '../../bench/uiServe';
import { ProxiesPage } from '../pages/ProxiesPage';
import { ProxyPage } from '../pages/ProxyPage';

test.describe.configure({ mode: 'serial' });
let served: Served | undefined;
let dir = '';

test.beforeAll(async () => {
  test.setTimeout(480_000);
  dir = writeSyntheticMesh(SERVICES_FOR_10K_CLUSTERS);
  served = await serveDir(dir, { distDir: `${process.env.MESHSCOPE_DIST_DIR || '.next'}-scale` });
});
test.afterAll(async () => {
  await served?.stop();
});

test('a proxy with 10,000 clusters among thousands of proxies opens; the clusters table scrolls to the end and filters', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const { id, clusters, proxies } = await firstProxy(served!.url);
  // Every generated service has its two Deployments (one pod each): all of them are sidecars.
  expect(proxies).toBe(2 * SERVICES_FOR_10K_CLUSTERS);
  expect(clusters).toBeGreaterThanOrEqual(10_000);
  const proxy = new ProxyPage(page);
  await page.goto(`${served!.url}/proxies/${encodeURIComponent(id)}?tab=clusters`, { timeout: 120_000 });
  await expect(proxy.count('clusters')).toHaveText(`${clusters} rows`, { timeout: 60_000 });
  // Virtualised: a few dozen rows in the DOM, not 10,000.
  expect(await proxy.rows('clusters').count()).toBeLessThan(100);

  const grid = proxy.grid('clusters');
  await grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(grid.locator(`[aria-rowindex="${clusters + 1}"]`)).toBeVisible();
  await grid.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(grid.locator(`[aria-rowindex="${Math.floor(clusters / 2)}"]`)).toBeAttached();
  await page.screenshot({ path: info.outputPath('scale-scrolled.png') });

  // istioctl pc clusters --fqdn svc-1234.… : the default cluster and subsets v1, v2 (generateMesh's DestinationRule).
  await proxy.filter('clusters', 'fqdn', 'svc-1234.');
  await expect(proxy.count('clusters')).toHaveText(`3 of ${clusters} rows`);
  await expect(proxy.rows('clusters')).toHaveCount(3);
  await proxy.filter('clusters', 'subset', 'v2');
  await expect(proxy.count('clusters')).toHaveText(`1 of ${clusters} rows`);
  await expect(proxy.rows('clusters').first()).toContainText('svc-1234.');
  await page.screenshot({ path: info.outputPath('scale-filtered.png'), fullPage: true });
});

test('a file change while the 10,000-cluster proxy page is open reaches it without a reload', async ({ page }, info) => {
  test.setTimeout(240_000);
  const { id, clusters } = await firstProxy(served!.url);
  const proxy = new ProxyPage(page);
  await page.goto(`${served!.url}/proxies/${encodeURIComponent(id)}?tab=clusters`, { timeout: 120_000 });
  await expect(proxy.count('clusters')).toHaveText(`${clusters} rows`, { timeout: 60_000 });
  await expect(page.getByTestId('live-state')).toHaveText('● live', { timeout: 30_000 });
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  // A new public Service (no exportTo: visible to every namespace, istiod's default) gives every sidecar
  // one more outbound cluster: outbound|8080||live-added.ns-0.svc.cluster.local (no DestinationRule: no subsets).
  writeFileSync(
    join(dir, 'zz-live.yaml'),
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: live-added, namespace: ns-0}',
      'spec:',
      '  selector: {app: live-added}',
      '  ports: [{name: http, port: 8080, targetPort: 8080}]',
      '',
    ].join('\n'),
  );
  await expect(proxy.count('clusters')).toHaveText(`${clusters + 1} rows`, { timeout: 120_000 });
  await proxy.filter('clusters', 'fqdn', 'live-added.');
  await expect(proxy.rows('clusters')).toHaveCount(1);
  await expect(proxy.row('clusters', 'outbound|8080||live-added.ns-0.svc.cluster.local')).toBeVisible();
  await expect(proxy.rows('clusters').first()).toContainText('live-added.ns-0.svc.cluster.local');
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await page.screenshot({ path: info.outputPath('scale-live.png'), fullPage: true });
});

test('the proxies page lists thousands of proxies and counts the rows in view lazily', async ({ page }, info) => {
  test.setTimeout(240_000);
  const { id } = await firstProxy(served!.url);
  const list = new ProxiesPage(page);
  await page.goto(`${served!.url}/proxies`, { timeout: 120_000 });
  const total = 2 * SERVICES_FOR_10K_CLUSTERS;
  await expect(list.count).toContainText(`${total} of ${total} proxies`, { timeout: 60_000 });
  // The first row's clusters cell (8th column): counted on request, 10,000 + the live-added service.
  const cell = list.row(id).locator('td').nth(7);
  await expect(cell).toHaveText(/^\d{5}$/, { timeout: 180_000 });
  expect(Number(await cell.textContent())).toBeGreaterThanOrEqual(10_000);
  // Rows far below the viewport were not counted.
  const last = list.table.locator('tbody tr').last();
  await expect(last.getByTestId('count-pending').first()).toBeAttached();
  // Filtering still works on thousands of rows.
  await list.filter.fill('svc-1234-v2');
  await expect(list.count).toContainText(`1 of ${total} proxies`);
  await page.screenshot({ path: info.outputPath('scale-proxies.png'), fullPage: false });
});
