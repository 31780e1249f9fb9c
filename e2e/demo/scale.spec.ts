// Scale: a sidecar with 10,000+ clusters (bench/generateMesh.ts, 3,334 services × (default + 2 subsets))
// opens, its clusters tab scrolls to the end and filters. Runs its own `meshscope serve` on the generated
// directory (started here, stopped by process group), from its own build directory (`<dist>-scale`) so
// a rebuild it may need never replaces the chunks of the project servers already running.
import { expect, test } from '@playwright/test';
import { firstProxy, serveDir, SERVICES_FOR_10K_CLUSTERS, writeSyntheticMesh, type Served } from '../../bench/uiServe';
import { ProxyPage } from '../pages/ProxyPage';

test.describe.configure({ mode: 'serial' });
let served: Served | undefined;

test.beforeAll(async () => {
  test.setTimeout(480_000);
  served = await serveDir(writeSyntheticMesh(SERVICES_FOR_10K_CLUSTERS), { distDir: `${process.env.MESHSCOPE_DIST_DIR || '.next'}-scale` });
});
test.afterAll(async () => {
  await served?.stop();
});

test('a proxy with 10,000 clusters opens; the clusters table scrolls to the end and filters', async ({ page }, info) => {
  test.setTimeout(180_000);
  const { id, clusters } = await firstProxy(served!.url);
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
