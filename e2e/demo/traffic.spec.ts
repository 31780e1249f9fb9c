// Issue #10 acceptance: /demo on the embedded demo mesh. Real calls from @grpc/grpc-js-xds clients to real
// pod servers on loopback; every change goes through the sandbox apply path. Shares are asserted with
// tolerance and generous timeouts; the time to 95% is printed, not asserted.
import { expect, type Page, test } from '@playwright/test';
import type { TrafficReport } from '../../server/demo/report';

const bars = (page: Page) => page.getByTestId('plain-bars');
const observed = async (page: Page, subset: string): Promise<number> =>
  Number(
    (await bars(page)
      .locator(`tr[data-subset="${subset}"]`)
      .getAttribute('data-observed', { timeout: 1000 })
      .catch(() => '0')) ?? 0,
  );
const errorRate = async (page: Page) => Number((await page.getByTestId('error-rate').getAttribute('data-value')) ?? -1);
const calls = async (page: Page) => Number((await page.getByTestId('calls').textContent()) ?? 0);

test.describe.configure({ mode: 'serial' });

test('traffic demo: traffic flows, 80/20 → 0/100 shifts it, a 50% abort shows 50% errors, reset restores', async ({
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  await page.goto('/demo');
  await expect(page.getByRole('heading', { name: 'Traffic demo' })).toBeVisible();
  // Traffic flows within 5 s of opening the page.
  await expect.poll(() => calls(page), { timeout: 5_000 }).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'products' })).toHaveAttribute('aria-pressed', 'true');
  // The demo mesh as shipped: products 80/20 (examples/demo/30-traffic.yaml), observed close to it.
  await expect(bars(page).locator('tr[data-subset="v1"]')).toHaveAttribute('data-configured', '80');
  await expect(bars(page).locator('tr[data-subset="v2"]')).toHaveAttribute('data-configured', '20');
  await expect.poll(() => observed(page, 'v1'), { timeout: 10_000 }).toBeGreaterThan(60);
  // The caller's route graph shows the configured split (weight / sum, as on the proxy page).
  const cluster = (subset: string) => `outbound|9080|${subset}|products.catalog.svc.cluster.local`;
  const graph = page.getByTestId('demo-route-graph');
  await expect(graph).toContainText(`${cluster('v1')} 80%`, { timeout: 30_000 });
  await expect(graph).toContainText(`${cluster('v2')} 20%`);
  await page.screenshot({ path: info.outputPath('demo-80-20.png'), fullPage: true });

  // Canary step 0/100: the observed v2 share reaches ≥ 95%.
  const t0 = Date.now();
  await page.getByRole('button', { name: '0/100' }).click();
  await expect(page.getByTestId('apply-status')).toContainText('applied to catalog/products');
  await expect.poll(() => observed(page, 'v2'), { timeout: 20_000, intervals: [100] }).toBeGreaterThanOrEqual(95);
  console.log(`demo e2e: 0/100 click → observed v2 ≥ 95% (1 s window) in ${Date.now() - t0} ms`);
  await expect(bars(page).locator('tr[data-subset="v2"]')).toHaveAttribute('data-configured', '100');
  // 0/100: the route has one destination left (a weight-0 destination is dropped), v2.
  await expect(graph).not.toContainText(cluster('v1'), { timeout: 30_000 });
  await expect(graph).toContainText(cluster('v2'));
  await page.screenshot({ path: info.outputPath('demo-0-100.png'), fullPage: true });

  // 50% abort on the catch-all route: about half the calls fail (UNAVAILABLE, from HTTP 503).
  await page.getByLabel('abort percent').fill('50');
  await expect(page.getByTestId('apply-status')).toContainText('applied');
  await expect.poll(() => errorRate(page), { timeout: 20_000 }).toBeGreaterThan(30);
  // The page shows the last second (about 60 calls at this server's rate); the ±10-point check reads the same
  // counters over 5 s (about 300 calls) from GET /api/demo/traffic once 5 s have passed under the fault.
  await page.waitForTimeout(5_500);
  const products = ((await (await request.get('/api/demo/traffic?window=5')).json()) as TrafficReport).services.find((s) =>
    s.host.startsWith('products.'),
  )!;
  console.log(
    `demo e2e: error rate under a 50% abort: ${products.errorPercent}% of ${products.requests} calls (page: ${await errorRate(page)}%)`,
  );
  expect(Math.abs(products.errorPercent - 50)).toBeLessThanOrEqual(10);
  await expect(page.getByTestId('error-rate')).toContainText('UNAVAILABLE');
  await page.screenshot({ path: info.outputPath('demo-abort-50.png'), fullPage: true });

  // Reset: the demo mesh as shipped again (80/20, no fault).
  await page.getByRole('button', { name: 'Reset demo' }).click();
  await expect(page.getByTestId('apply-status')).toContainText('reset');
  await expect(bars(page).locator('tr[data-subset="v1"]')).toHaveAttribute('data-configured', '80', { timeout: 10_000 });
  await expect.poll(() => errorRate(page), { timeout: 10_000 }).toBe(0);
  await expect.poll(() => observed(page, 'v1'), { timeout: 10_000 }).toBeGreaterThan(60);
  await expect(page.getByLabel('abort percent')).toHaveValue('0');
  await page.screenshot({ path: info.outputPath('demo-reset.png'), fullPage: true });
});
