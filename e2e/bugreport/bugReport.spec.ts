// Issue 21 offline: `meshscope serve --bug-report ARCHIVE` (an istioctl bug-report built from Bookinfo with
// productpage's config dump and istiod's syncz, bugReportArchive.ts). The whole dashboard from the archive alone:
// the proxies table shows istiod's sync state from the archive (RDS STALE: the pod's Envoy did not ack the last
// route push), the proxy page's Live tab shows the dump the archive holds (source "bug-report"), its Drift tab
// compares it with meshscope's translation of the archive's cluster objects — the Envoy still routes reviews
// 50/50 where the VirtualService says 80/20 — and "trace on both" simulates a request to that route on both
// configs side by side, the weighted clusters marked as the one hop that differs.
import { expect, test } from '@playwright/test';

const POD = 'productpage-v1-7d6cfb7dfd-x2x9k.default';
const V1 = 'outbound|9080|v1|reviews.default.svc.cluster.local';
const V2 = 'outbound|9080|v2|reviews.default.svc.cluster.local';

test('the archive feeds translation, Live and Drift', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const proxies = (await (await request.get('/api/proxies')).json()) as { proxies: { id: string }[] };
  expect(proxies.proxies.map((p) => p.id)).toContain(POD);
  const live = await request.get(`/api/proxies/${POD}/live`);
  expect(live.status()).toBe(200);
  expect(await live.json()).toMatchObject({ proxy: POD, source: 'bug-report' });
  // A pod without a dump in the archive is 404 naming it (stage proxy), through the real server's bundles.
  const none = await request.get('/api/proxies/ghost.default/live');
  expect(none.status()).toBe(404);
  expect(await none.json()).toMatchObject({ stage: 'proxy', error: expect.stringContaining('ghost.default') });
  const drift = (await (await request.get(`/api/proxies/${POD}/drift?bodies=0`)).json()) as {
    inSync: boolean;
    resources: { type: string; name: string; change: string }[];
    routes: { routeConfig: string; virtualHost: string; change: string; detail?: string }[];
  };
  expect(drift.inSync).toBe(false);
  expect(drift.resources.map((r) => [r.type, r.name, r.change])).toEqual([['routes', '9080', 'changed']]);
  expect(drift.routes).toEqual([
    expect.objectContaining({ routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080', change: 'changed' }),
  ]);

  // istiod's syncz from the archive, in the proxies table's sync column.
  await page.goto('/proxies');
  const row = page.getByRole('row', { name: `proxy ${POD}` });
  await expect(row.getByTestId('sync-source')).toContainText('bug-report', { timeout: 30_000 });
  await expect(row.locator('[data-sync-type="RDS"]')).toHaveText('RDS STALE');
  await expect(row.locator('[data-sync-type="CDS"]')).toHaveText('CDS SYNCED');
  await page.screenshot({ path: info.outputPath('bugreport-proxies-sync.png'), fullPage: true });

  await page.goto(`/proxies/${POD}?tab=live`);
  await expect(page.getByTestId('live-tab')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('live-source')).toHaveText('bug-report');
  await page.screenshot({ path: info.outputPath('bugreport-live.png'), fullPage: true });
  await page.goto(`/proxies/${POD}?tab=drift`);
  await expect(page.getByTestId('drift-view')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('drift-view')).toHaveAttribute('data-in-sync', 'false');
  await expect(page.getByTestId('drift-route')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath('bugreport-drift.png'), fullPage: true });
});

test('trace on both: the changed route traced on meshscope’s config and on the Envoy’s, the difference marked', async ({
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  // The API underneath: the same request on each side (POST /api/simulate config "meshscope" | "live").
  const req = { mode: 'outbound', port: 9080, host: 'reviews:9080', path: '/reviews/1' };
  const mine = await request.post('/api/simulate', { data: { proxyId: POD, request: req, config: 'meshscope' } });
  const envoys = await request.post('/api/simulate', { data: { proxyId: POD, request: req, config: 'live' } });
  expect(mine.status()).toBe(200);
  expect(envoys.status()).toBe(200);
  expect((await mine.json()).weightedClusters).toEqual({ [V1]: 80, [V2]: 20 });
  expect(await envoys.json()).toMatchObject({ weightedClusters: { [V1]: 50, [V2]: 50 }, live: { source: 'bug-report' } });
  const ghost = await request.post('/api/simulate', { data: { proxyId: 'ghost.default', request: req, config: 'live' } });
  expect(ghost.status()).toBe(404);

  await page.goto(`/proxies/${POD}?tab=drift`);
  await expect(page.getByTestId('drift-view')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('drift-trace-route').click();
  const trace = page.getByTestId('drift-trace');
  await expect(trace.getByTestId('drift-trace-table')).toBeVisible({ timeout: 30_000 });
  await expect(trace.getByTestId('drift-trace-host')).toHaveValue('reviews.default.svc.cluster.local');
  await expect(trace.getByTestId('drift-trace-verdict')).toHaveAttribute('data-differing', '1');
  const weights = trace.locator('tr[data-field="weightedClusters"]');
  await expect(weights).toHaveAttribute('data-differs', 'true');
  await expect(weights.getByTestId('drift-trace-expected')).toHaveText(`${V1} 80, ${V2} 20`);
  await expect(weights.getByTestId('drift-trace-actual')).toHaveText(`${V1} 50, ${V2} 50`);
  for (const same of ['listener', 'routeConfig', 'virtualHost', 'route'])
    await expect(trace.locator(`tr[data-field="${same}"]`)).toHaveAttribute('data-differs', 'false');
  await expect(trace.getByTestId('drift-trace-live')).toContainText('bug-report');
  await trace.screenshot({ path: info.outputPath('bugreport-trace-both.png') });
  await page.screenshot({ path: info.outputPath('bugreport-trace-both-page.png'), fullPage: true });
});
