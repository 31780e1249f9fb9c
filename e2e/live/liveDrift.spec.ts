// Issue 21 in the browser: `serve --kubeconfig … --live-config` against the fake API server (e2e/live/liveCluster.ts).
// The proxy page's Live tab shows the pod's own Envoy config (read through the port-forward) in the proxy
// tables; its Drift tab shows what differs from meshscope's config: productpage's Envoy carries the issue's
// injected drift (reviews 80/20 → 70/30, reviews v3 missing, an extra cluster, details' connect_timeout 10s →
// 5s, a NACKed listener). The proxies table's drift column: in sync (details: an Envoy-like dump of
// meshscope's own config), rejected (productpage: a NACK), not fetched (ratings: port-forward forbidden).
import { expect, test, type APIRequestContext } from '@playwright/test';

test.describe.configure({ mode: 'serial' });

const REVIEWS_V3 = 'outbound|9080|v3|reviews.default.svc.cluster.local';

async function podId(request: APIRequestContext, app: string): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const p = body.proxies.find((x) => x.id.startsWith(`${app}-v1-`));
  if (!p) throw new Error(`no ${app} proxy`);
  return p.id;
}

/** Waits until the pod's admin serves its dump (liveCluster.ts sets them once serve is up). */
async function liveReady(request: APIRequestContext, id: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const r = await request.get(`/api/proxies/${encodeURIComponent(id)}/live`);
        const b = (await r.json()) as { configDump?: { configs?: unknown[] } };
        return r.status() === 200 && (b.configDump?.configs?.length ?? 0) > 0;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);
}

test('Live tab: the pod’s own Envoy config in the proxy tables', async ({ page, request }, info) => {
  const id = await podId(request, 'productpage');
  await liveReady(request, id);
  await page.goto(`/proxies/${encodeURIComponent(id)}?tab=live`);
  await expect(page.getByTestId('live-tab')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('live-source')).toHaveText('portforward');
  const clusters = page.getByTestId('live-clusters-table');
  // The table shows clusters by service, port and subset: the Envoy's extra cluster is there, reviews v3 is not.
  await expect(clusters).toContainText(/extra\.default\.svc\.cluster\.local\s*9999/);
  await expect(clusters).toContainText(/reviews\.default\.svc\.cluster\.local\s*9080\s*v2/);
  await expect(clusters).not.toContainText(/reviews\.default\.svc\.cluster\.local\s*9080\s*v3/);
  await page.screenshot({ path: info.outputPath('live-tab-productpage.png'), fullPage: true });
});

test('Drift tab: the injected differences, the rejected listener, nothing else', async ({ page, request }, info) => {
  const id = await podId(request, 'productpage');
  await liveReady(request, id);
  await page.goto(`/proxies/${encodeURIComponent(id)}?tab=drift`);
  const view = page.getByTestId('drift-view');
  await expect(view).toBeVisible({ timeout: 20_000 });
  await expect(view).toHaveAttribute('data-in-sync', 'false');
  await expect(page.getByTestId('drift-verdict')).toContainText('Not in sync');
  await expect(page.getByTestId('drift-nacked')).toContainText('duplicate filter chain match');
  const resources = page.getByTestId('drift-resource');
  await expect(resources).toHaveCount(6);
  await expect(page.getByTestId('drift-resources')).toContainText(`${REVIEWS_V3} — only in meshscope`);
  await expect(page.getByTestId('drift-resources')).toContainText('connect_timeout');
  await expect(page.getByTestId('drift-routes')).toContainText('9080');
  // The details cluster's two sides next to each other.
  await page.getByRole('button', { name: /outbound\|9080\|\|details\.default\.svc\.cluster\.local/ }).click();
  await expect(page.getByTestId('drift-side-actual')).toContainText('5s');
  await expect(page.getByTestId('drift-side-expected')).toContainText('10s');
  await page.screenshot({ path: info.outputPath('drift-tab-productpage.png'), fullPage: true });
});

test('proxies table: the drift column, filled without blocking the page', async ({ page, request }, info) => {
  const details = await podId(request, 'details');
  await liveReady(request, details);
  await page.goto('/proxies');
  await expect(page.getByTestId('proxies-table')).toBeVisible();
  const cell = (app: string) => page.locator(`tr[data-proxy-id^="${app}-v1-"] [data-testid="drift-cell"]`);
  await expect(cell('details')).toHaveAttribute('data-drift', 'in-sync', { timeout: 30_000 });
  await expect(cell('productpage')).toHaveAttribute('data-drift', 'rejected', { timeout: 30_000 });
  await expect(cell('ratings')).toHaveAttribute('data-drift', 'not-fetched', { timeout: 30_000 });
  await expect(cell('ratings').locator('span')).toHaveAttribute('title', /pods\/portforward/);
  await page.screenshot({ path: info.outputPath('proxies-drift-column.png'), fullPage: true });
});
