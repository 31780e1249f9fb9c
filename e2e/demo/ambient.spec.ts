// The embedded demo mesh's ambient namespace (examples/demo/50-ambient.yaml; `serve` turns the ambient profile on for
// the demo) as a new user meets it: the overview draws the enrolled namespace and pods and the waypoint with an edge
// to the Service bound to it (ambientindex.go ServicesForWaypoint); the ztunnel page lists what istiod sends
// ztunnel and links the waypoint to its proxy page (listeners connect_terminate / main_internal, listener_waypoint.go);
// /trace from checkout goes ztunnel → waypoint (the GAMMA HTTPRoute's 90/10) → ztunnel, and to payments bypasses the
// waypoint for the reason istiod has (waypoints.go fetchWaypointForTarget: no istio.io/use-waypoint).
import { expect, test } from '@playwright/test';
import { OverviewPage } from '../pages/OverviewPage';
import { ProxyPage } from '../pages/ProxyPage';

test('the overview shows the ambient namespace, its enrolled pods and the waypoint serving orders', async ({ page }, info) => {
  const overview = new OverviewPage(page);
  await overview.goto('ns=orders');
  const panel = page.getByTestId('ambient-panel');
  await expect(panel.getByTestId('ambient-namespace')).toHaveText(['orders']);
  const row = panel.getByTestId('ambient-waypoint-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('orders/waypoint');
  await expect(row).toContainText('orders');
  // payments' VirtualService has no waypoint to run it: listed with the binding's reason.
  await expect(panel.getByTestId('ambient-skipped-row')).toContainText('VirtualService orders/payments');
  await expect(panel.getByTestId('ambient-skipped-row')).toContainText('NoUseWaypoint');
  const { nodes, edges } = await overview.content();
  const waypointEdges = edges.filter((e) => e.kind === 'waypoint');
  expect(waypointEdges.map((e) => e.target)).toEqual(['svc:orders/orders.orders.svc.cluster.local']);
  expect(nodes.find((n) => n.id === 'ns:orders')?.label).toContain('[ambient]');
  // The default graph (versioned app) draws workloads, not pods: the enrolled pods' workloads carry the badge.
  expect(nodes.filter((n) => n.kind === 'workload' && n.label.includes('[ambient]')).length).toBeGreaterThan(0);
  expect(nodes.find((n) => n.id === 'svc:orders/payments.orders.svc.cluster.local')?.label).toContain('[L7 without waypoint]');
  await page.screenshot({ path: info.outputPath('overview-ambient-orders.png'), fullPage: true });
});

test('the ztunnel page links the orders waypoint to its proxy page, a proxy page like any other', async ({ page, request }, info) => {
  const api = (await (await request.get('/api/ztunnel')).json()) as { workloads: unknown[]; services: unknown[] };
  await page.goto('/ztunnel');
  await expect(page.getByTestId('ztunnel-workload-row')).toHaveCount(api.workloads.length);
  await expect(page.getByTestId('ztunnel-service-row')).toHaveCount(api.services.length);
  await page.getByTestId('ztunnel-services-filter').fill('orders');
  const orders = page.locator('#svc-orders-orders-orders-svc-cluster-local');
  await expect(orders).toContainText('waypoint');
  await expect(orders.getByRole('link', { name: 'orders', exact: true })).toHaveAttribute('href', /^\/\?focus=svc%3Aorders%2F/);
  await page.screenshot({ path: info.outputPath('ztunnel-demo.png'), fullPage: true });

  await orders.getByTestId('ztunnel-waypoint-proxy').click();
  await expect(page).toHaveURL(/\/proxies\/waypoint-[a-z0-9-]+\.orders(\?tab=listeners)?$/);
  const proxy = new ProxyPage(page);
  await proxy.openTab('listeners');
  for (const l of ['connect_terminate', 'main_internal']) await expect(proxy.listeners).toContainText(l);
  await proxy.openTab('clusters');
  await expect(proxy.clusters).toContainText('inbound-vip|8080|http|orders.orders.svc.cluster.local');
  await page.screenshot({ path: info.outputPath('waypoint-proxy-demo.png'), fullPage: true });
});

async function traceFrom(page: import('@playwright/test').Page, host: string) {
  await page.goto('/trace');
  const from = page.locator('select[name="from"]');
  const option = from.locator('option', { hasText: 'checkout' }).first();
  await from.selectOption((await option.getAttribute('value')) ?? '');
  await page.locator('input[name="host"]').fill(host);
  await page.locator('input[name="path"]').fill('/orders');
  await page.getByRole('button', { name: 'Trace' }).click();
}

test('from checkout to orders: through the waypoint (90/10); to payments: bypassed, and why', async ({ page }, info) => {
  await traceFrom(page, 'orders.orders.svc.cluster.local:8080');
  await expect(page.getByTestId('ambient-waypoint-verdict')).toContainText('Through waypoint orders/waypoint');
  const hops = page.getByTestId('ambient-hop');
  await expect(hops.first()).toHaveAttribute('data-role', 'client');
  await expect(hops.nth(1)).toHaveAttribute('data-hop', 'waypoint');
  await expect(page.getByTestId('ambient-filter-chain')).toContainText('inbound-vip|8080|http|orders.orders.svc.cluster.local');
  const weights = page.getByTestId('ambient-weights');
  await expect(weights).toContainText('orders-v1.orders.svc.cluster.local 90%');
  await expect(weights).toContainText('orders-v2.orders.svc.cluster.local 10%');
  await page.screenshot({ path: info.outputPath('trace-checkout-orders-waypoint.png'), fullPage: true });

  await traceFrom(page, 'payments.orders.svc.cluster.local:8080');
  await expect(page.getByTestId('ambient-bypass-reason')).toHaveText('NoUseWaypoint');
  await expect(page.getByTestId('ambient-waypoint-verdict')).toContainText('no istio.io/use-waypoint label on Service orders/payments');
  await page.screenshot({ path: info.outputPath('trace-checkout-payments-bypass.png'), fullPage: true });
});
