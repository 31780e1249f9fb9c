// Overview graph and proxies page on the embedded demo mesh (examples/demo).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseAllDocuments } from 'yaml';
import { appBoxes, countsFromInputs, OverviewPage, workloadsFromInputs } from '../pages/OverviewPage';
import { ProxiesPage } from '../pages/ProxiesPage';

const DEMO_DIR = join(process.cwd(), 'examples', 'demo');
const demoTexts = () =>
  readdirSync(DEMO_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => readFileSync(join(DEMO_DIR, f), 'utf8'));
const parseAll = (t: string) => parseAllDocuments(t).map((d) => d.toJS() as unknown);

test('the default (versioned app) graph: one node per workload boxed by app, one edge per workload carrying the split', async ({
  page,
}, info) => {
  const expected = countsFromInputs(demoTexts(), parseAll);
  const workloads = workloadsFromInputs(demoTexts(), parseAll);
  const boxes = appBoxes(workloads);
  const overview = new OverviewPage(page);
  await overview.goto();
  await expect(page.getByTestId('graph-type').locator('[data-graph-type="versionedApp"]')).toHaveAttribute('aria-pressed', 'true');
  const total = expected.namespaces + expected.services + expected.workloads + boxes.length;
  await expect(overview.graph).toHaveAttribute('data-node-count', String(total));
  const { nodes, edges } = await overview.content();
  expect(nodes.filter((n) => n.kind === 'proxy' || n.kind === 'pod')).toEqual([]);
  expect(
    nodes
      .filter((n) => n.kind === 'app')
      .map((n) => n.id.slice('app:'.length))
      .sort(),
  ).toEqual([...boxes].sort());
  // A workload of a boxed app is named by its version inside the box (examples/demo: products v1–v3).
  const products = workloads.filter((w) => w.namespace === 'catalog' && w.app === 'products');
  for (const w of products)
    expect(nodes.find((n) => n.id === `wl:catalog/Deployment/${w.name}`)).toMatchObject({
      label: w.version,
      parent: 'app:catalog/products',
    });
  // 30-traffic.yaml: products `shift` 80 v1 / 20 v2 applies to every sidecar. storefront-v1 has two replicas
  // (10-shop.yaml): one edge, not one per pod, labelled with the split.
  const storefront = workloads.find((w) => w.name === 'storefront-v1')!;
  expect(storefront.replicas).toBeGreaterThan(1);
  const PRODUCTS = 'svc:catalog/products.catalog.svc.cluster.local';
  const fromStorefront = edges.filter(
    (e) => e.source === 'wl:shop/Deployment/storefront-v1' && e.target === PRODUCTS && e.kind === 'route',
  );
  expect(fromStorefront.map((e) => e.label)).toEqual(['v1 80 · v2 20%']);
  // Edges carry a label only where it is a number: the endpoint edges (service → workload) carry none.
  expect(edges.filter((e) => e.kind === 'endpoint' && e.label !== '')).toEqual([]);
  await page.screenshot({ path: info.outputPath('overview-versioned-app.png'), fullPage: true });
});

test('per-proxy graph on demand: every namespace, service, workload and proxy of the demo inputs', async ({ page }, info) => {
  const expected = countsFromInputs(demoTexts(), parseAll);
  const overview = new OverviewPage(page);
  await overview.goto();
  await page.getByTestId('graph-type').locator('[data-graph-type="proxy"]').click();
  await expect(page).toHaveURL(/[?&]graphType=proxy/);
  await expect(overview.graph).toHaveAttribute('data-node-count', String(expected.total));
  const { nodes, edges } = await overview.content();
  expect(nodes).toHaveLength(expected.total);
  expect(nodes.filter((n) => n.kind === 'service')).toHaveLength(expected.services);
  expect(nodes.filter((n) => n.kind === 'workload')).toHaveLength(expected.workloads);
  expect(nodes.filter((n) => n.kind === 'proxy' || n.kind === 'pod')).toHaveLength(expected.pods);
  // examples/demo/30-traffic.yaml: products VirtualService `shift` sends 80% to v1, 20% to v2 — weighted
  // edges from each sidecar, wider for the larger share (route.go: weight/total of the rule).
  const v1 = edges.filter((e) => e.full === 'products http[0] shift → v1 80%');
  const v2 = edges.filter((e) => e.full === 'products http[0] shift → v2 20%');
  expect(v1.length).toBeGreaterThan(0);
  expect(v1.length).toBe(v2.length);
  expect(v1[0]!.width).toBeGreaterThan(v2[0]!.width);
  await expect(overview.counts.locator('[data-count="proxies"] strong')).toHaveText(String(expected.proxies));
  await expect(overview.sources).toContainText('demo mesh');
  await expect(page.getByTestId('xds-state')).toContainText(`listening on :${process.env.E2E_XDS_PORT}`);
  await expect(page.getByTestId('live-state')).toHaveText('● live');
  await expect(overview.routes).toContainText('catalog/products http[0]');
  await page.screenshot({ path: info.outputPath('overview.png'), fullPage: true });
});

test('namespace filter lives in the URL; clicking a proxy opens its page', async ({ page }, info) => {
  const overview = new OverviewPage(page);
  await overview.goto('graphType=proxy');
  await overview.nsChip('catalog').click();
  await expect(page).toHaveURL(/[?&]ns=catalog/);
  await overview.waitForLayout();
  const { nodes } = await overview.content();
  // Catalog's services are kept; a service nothing in catalog routes to or from (storefront) is not.
  expect(nodes.map((n) => n.id)).toContain('svc:catalog/products.catalog.svc.cluster.local');
  expect(nodes.map((n) => n.id)).not.toContain('svc:shop/storefront.shop.svc.cluster.local');
  await page.screenshot({ path: info.outputPath('overview-catalog.png'), fullPage: true });
  await page.reload();
  await overview.waitForLayout();
  await expect(overview.nsChip('catalog')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]graphType=proxy/);

  const proxy = nodes.find((n) => n.kind === 'proxy' && n.id.includes('ratings-v1'))!;
  await overview.clickNode(proxy.id);
  await expect(page).toHaveURL(new RegExp(`/proxies/${proxy.id.slice('proxy:'.length).replace(/\./g, '\\.')}(\\?tab=listeners)?$`));
});

test('hiding proxies collapses them into workloads', async ({ page }) => {
  const expected = countsFromInputs(demoTexts(), parseAll);
  const overview = new OverviewPage(page);
  await overview.goto('graphType=proxy&hide=proxy');
  await expect(overview.graph).toHaveAttribute('data-node-count', String(expected.total - expected.proxies));
  const { edges } = await overview.content();
  expect(edges.some((e) => e.source.startsWith('wl:shop/Deployment/storefront-v1') && e.full === 'products http[0] shift → v1 80%')).toBe(
    true,
  );
});

test('versioned app: a workload with one pod opens its proxy on click', async ({ page }) => {
  const overview = new OverviewPage(page);
  await overview.goto();
  const ratings = workloadsFromInputs(demoTexts(), parseAll).find((w) => w.name === 'ratings-v1')!;
  expect(ratings.replicas).toBe(1);
  await overview.clickNode('wl:catalog/Deployment/ratings-v1');
  await expect(page).toHaveURL(/\/proxies\/ratings-v1-[^/]+\.catalog(\?tab=listeners)?$/);
});

test('the theme toggle switches light/dark and is remembered', async ({ page }, info) => {
  const overview = new OverviewPage(page);
  await overview.goto();
  const toggle = page.getByTestId('theme-toggle');
  await toggle.click(); // system → light
  await toggle.click(); // light → dark
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await overview.waitForLayout();
  await page.screenshot({ path: info.outputPath('overview-dark.png'), fullPage: true });
});

test('proxies page: every demo proxy, filters by text/namespace/type in the URL, keyboard navigation', async ({ page }, info) => {
  const expected = countsFromInputs(demoTexts(), parseAll);
  const proxies = new ProxiesPage(page);
  await proxies.goto();
  expect(await proxies.ids()).toHaveLength(expected.proxies);
  // Only the demo data plane's clients (the storefront pods, server/demo) connect to this ADS server: the
  // first row (catalog) is computed-only.
  await expect(proxies.table.getByTestId('sync-cell').first()).toContainText('not connected');

  await proxies.type.selectOption('gateway');
  await expect(page).toHaveURL(/[?&]type=gateway/);
  await expect(proxies.table.locator('tbody tr')).toHaveCount(1);
  await expect(proxies.table.locator('tbody tr').first()).toContainText('istio-ingressgateway');

  await proxies.goto('ns=catalog');
  await expect(proxies.table.locator('tbody tr')).toHaveCount(5); // products v1–v3, ratings v1–v2
  await proxies.filter.fill('version=v2');
  await expect(page).toHaveURL(/[?&]q=version%3Dv2/);
  const ids = await proxies.ids();
  expect(ids.map((id) => id.split('-').slice(0, 2).join('-')).sort()).toEqual(['products-v2', 'ratings-v2']);

  // ↓ moves between rows, Enter opens the focused proxy.
  await proxies.row(ids[0]!).focus();
  await page.keyboard.press('ArrowDown');
  await expect(proxies.row(ids[1]!)).toBeFocused();
  await page.screenshot({ path: info.outputPath('proxies.png'), fullPage: true });
  await page.keyboard.press('Enter');
  // The proxy page then names its first tab in the URL (`?tab=listeners`) once it has loaded.
  await expect(page).toHaveURL(new RegExp(`/proxies/${ids[1]!.replace(/\./g, '\\.')}(\\?tab=listeners)?$`));
});
