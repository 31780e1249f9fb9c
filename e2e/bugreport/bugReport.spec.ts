// Issue 21 offline: `meshscope serve --bug-report ARCHIVE` (an istioctl bug-report built from Bookinfo with
// productpage's config dump, bugReportArchive.ts). The whole dashboard from the archive alone: the proxy page's
// Live tab shows the dump the archive holds (source "bug-report"), and its Drift tab compares it with
// meshscope's translation of the archive's cluster objects — the same inputs, so in sync.
import { expect, test } from '@playwright/test';

const POD = 'productpage-v1-7d6cfb7dfd-x2x9k.default';

test('the archive feeds translation, Live and Drift', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const proxies = (await (await request.get('/api/proxies')).json()) as { proxies: { id: string }[] };
  expect(proxies.proxies.map((p) => p.id)).toContain(POD);
  const live = await request.get(`/api/proxies/${POD}/live`);
  expect(live.status()).toBe(200);
  expect(await live.json()).toMatchObject({ proxy: POD, source: 'bug-report' });
  const drift = (await (await request.get(`/api/proxies/${POD}/drift`)).json()) as { inSync: boolean };
  expect(drift.inSync).toBe(true);

  await page.goto(`/proxies/${POD}?tab=live`);
  await expect(page.getByTestId('live-tab')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('live-source')).toHaveText('bug-report');
  await page.screenshot({ path: info.outputPath('bugreport-live.png'), fullPage: true });
  await page.goto(`/proxies/${POD}?tab=drift`);
  await expect(page.getByTestId('drift-view')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('drift-view')).toHaveAttribute('data-in-sync', 'true');
  await page.screenshot({ path: info.outputPath('bugreport-drift.png'), fullPage: true });
});
