// Issue 22 in the browser: an EnvoyFilter (Istio's reference Lua example, reviews v1 only) dropped into the served
// Bookinfo directory reaches reviews-v1's config; its proxy page's EnvoyFilters tab shows the patch applied and
// where, and the cluster patch that matches nothing with its reason. The file is removed after.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';

const DIR = process.env.E2E_BOOKINFO_DIR!;
const FILE = join(DIR, 'envoyfilter-reviews-lua.yaml');
const FILTER = readFileSync(fileURLToPath(new URL('../../server/envoyfilter/testdata/reviews-lua.yaml', import.meta.url)), 'utf8');

test.beforeAll(() => writeFileSync(FILE, FILTER));
test.afterAll(() => rmSync(FILE, { force: true }));

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
