// Demo mesh (examples/demo): a storefront sidecar's tabs, the 80/20 products split, raw JSON, deep links.
import { expect, test } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';

const PRODUCTS = 'products.catalog.svc.cluster.local:9080';

test('storefront sidecar: tabs match the config dump; products 80% v1 / 20% v2; raw JSON and sync tab', async ({ page, request }, info) => {
  const list = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const id = list.proxies.find((p) => p.id.startsWith('storefront-'))!.id;
  const dump = (await (await request.get(`/debug/config_dump?proxyID=${encodeURIComponent(id)}`)).json()) as {
    configs: Array<Record<string, unknown[]>>;
  };
  const [clusters, listeners] = dump.configs;
  const proxy = new ProxyPage(page);
  await proxy.goto(id);
  await expect(proxy.heading).toHaveText(id);
  await expect(proxy.tabButton('listeners')).toHaveAttribute('aria-selected', 'true');
  await expect(proxy.tabButton('clusters')).toContainText(String(clusters?.dynamic_active_clusters?.length ?? 0));
  const lnames = (listeners?.dynamic_listeners ?? []).map(
    (l) => (l as { active_state: { listener: { name: string } } }).active_state.listener.name,
  );
  await expect(proxy.table('listeners').getByRole('row').filter({ hasText: lnames[0]! }).first()).toBeVisible();

  // examples/demo/30-traffic.yaml: products 80% v1 / 20% v2 (route config `9080`, vhost `<fqdn>:<port>`).
  // Keyboard: arrow keys move between tabs (WAI-ARIA tabs pattern).
  await proxy.tabButton('listeners').focus();
  await page.keyboard.press('ArrowRight');
  await expect(proxy.tabButton('routes')).toHaveAttribute('aria-selected', 'true');
  await expect(proxy.tabButton('routes')).toBeFocused();
  await expect(page).toHaveURL(/tab=routes/);
  await proxy.search('routes', PRODUCTS);
  const row = proxy.rows('routes').filter({ hasText: PRODUCTS }).first();
  await expect(row).toContainText('outbound|9080|v1|products.catalog.svc.cluster.local 80%');
  await expect(row).toContainText('outbound|9080|v2|products.catalog.svc.cluster.local 20%');
  await row.click();
  await expect(proxy.routePanel).toContainText('80%');
  await expect(proxy.sourceObject).toContainText('VirtualService');
  await page.screenshot({ path: info.outputPath('demo-routes.png'), fullPage: true });

  // Back returns to the listeners tab (tab switches push history).
  await page.goBack();
  await expect(proxy.tabButton('listeners')).toHaveAttribute('aria-selected', 'true');

  const raw = (await proxy.rawDump()) as { configs: unknown[] };
  expect(raw.configs).toHaveLength(dump.configs.length);
  await expect(page.getByTestId('download-dump')).toContainText(`${id}-config_dump.json`);

  await proxy.openTab('sync');
  await expect(page.getByTestId('sync-timeline')).toBeVisible();
  await page.screenshot({ path: info.outputPath('demo-sync.png'), fullPage: true });
});

test('an unknown proxy says what to do', async ({ page }) => {
  await page.goto('/proxies/nope.default');
  await expect(page.getByTestId('proxy-not-found')).toContainText('open a config dump');
});
