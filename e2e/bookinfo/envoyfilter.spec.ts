// Issue 22 in the browser: an EnvoyFilter (Istio's reference Lua example, reviews v1 only) dropped into the served
// Bookinfo directory reaches reviews-v1's config; its proxy page's EnvoyFilters tab shows the patch applied and
// where, and the cluster patch that matches nothing with its reason; the listener table marks the patched listener
// with a link to that patch; an EnvoyFilter in a namespace without pods is listed on the overview as applying
// nowhere, with why. The files are removed after.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';

const DIR = process.env.E2E_BOOKINFO_DIR!;
const FILE = join(DIR, 'envoyfilter-reviews-lua.yaml');
const NOWHERE_FILE = join(DIR, 'envoyfilter-nowhere.yaml');
const NOWHERE = `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: typo-namespace, namespace: bookinfo-staging}
spec:
  workloadSelector: {labels: {app: reviewz}}
  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND}
    patch: {operation: MERGE, value: {connect_timeout: 1s}}
`;
const FILTER = readFileSync(fileURLToPath(new URL('../../server/envoyfilter/testdata/reviews-lua.yaml', import.meta.url)), 'utf8');

test.beforeAll(() => {
  writeFileSync(FILE, FILTER);
  writeFileSync(NOWHERE_FILE, NOWHERE);
});
test.afterAll(() => {
  rmSync(FILE, { force: true });
  rmSync(NOWHERE_FILE, { force: true });
});

test('EnvoyFilters tab: the Lua patch applied on reviews-v1 and where; the unmatched cluster patch says why', async ({
  page,
  request,
}, info) => {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const id = body.proxies.find((p) => p.id.startsWith('reviews-v1-'))!.id;
  await expect
    .poll(async () => JSON.stringify((await (await request.get(`/api/proxies/${encodeURIComponent(id)}?tables=0`)).json()).envoyFilters), {
      timeout: 20_000,
    })
    .toContain('"applied":true');
  await new ProxyPage(page).goto(id, 'tab=envoyfilters');
  const tab = page.getByTestId('envoyfilter-tab');
  await expect(tab).toContainText('1 of 2 patches changed this proxy');
  const rows = tab.getByTestId('envoyfilter-patch');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('default/reviews-lua');
  await expect(rows.nth(0)).toContainText('listener virtualInbound / chain 0.0.0.0_9080');
  await expect(rows.nth(1)).toContainText('no matching element');
  await page.screenshot({ path: info.outputPath('envoyfilter-tab.png'), fullPage: true });
});

test('the patched listener is marked in the listener table; its link opens the patch in the EnvoyFilters tab', async ({
  page,
  request,
}) => {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const id = body.proxies.find((p) => p.id.startsWith('reviews-v1-'))!.id;
  await expect
    .poll(async () => JSON.stringify((await (await request.get(`/api/proxies/${encodeURIComponent(id)}?tables=0`)).json()).envoyFilters), {
      timeout: 20_000,
    })
    .toContain('"applied":true');
  const proxy = new ProxyPage(page);
  await proxy.goto(id, 'tab=listeners&name=virtualInbound');
  const link = proxy.listeners.getByTestId('patch-link').first();
  await expect(link).toHaveAttribute('data-patch', 'default/reviews-lua/0');
  await link.click();
  await expect(page).toHaveURL(/tab=envoyfilters&patch=default%2Freviews-lua%2F0/);
  const row = page.locator('[data-testid="envoyfilter-patch"][data-patch="default/reviews-lua/0"]');
  await expect(row).toHaveAttribute('aria-current', 'true');
});

test('the overview lists the EnvoyFilter that applies nowhere, with why', async ({ page }) => {
  await page.goto('/');
  const item = page.locator('[data-testid="envoyfilter-nowhere"][data-name="bookinfo-staging/typo-namespace"]');
  await expect(item).toBeVisible({ timeout: 20_000 });
  // Outside the root namespace an EnvoyFilter concerns its own namespace only, and no pod runs there.
  await expect(item).toContainText('no Envoy proxy in namespace bookinfo-staging');
  // The Lua filter applies on reviews-v1: not listed.
  await expect(page.locator('[data-testid="envoyfilter-nowhere"][data-name="default/reviews-lua"]')).toHaveCount(0);
});
