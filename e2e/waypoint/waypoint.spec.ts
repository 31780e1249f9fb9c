// Bookinfo enrolled in ambient (project "waypoint", served with --ambient): a waypoint for reviews and
// route-reviews-90-10 as a GAMMA HTTPRoute. The waypoint's page is a proxy page (its listeners connect_terminate,
// main_internal, connect_originate and its inbound-vip cluster); /trace from productpage shows client ztunnel →
// the waypoint (main_internal, the HTTPRoute's 90/10) → the destination ztunnels; to ratings (no use-waypoint) it
// shows the bypass and its reason (waypoints.go fetchWaypointForTarget: no label, no waypoint).
import { expect, test } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';

const WAYPOINT = 'waypoint-5f7c9d8b6-x2x4k.bookinfo';

test("the waypoint's page is a proxy page with its listeners and inbound-vip clusters", async ({ page }, info) => {
  const proxy = new ProxyPage(page);
  await proxy.goto(WAYPOINT);
  await expect(proxy.heading).toContainText(WAYPOINT);
  await proxy.openTab('listeners');
  for (const l of ['connect_terminate', 'main_internal', 'connect_originate']) await expect(proxy.listeners).toContainText(l);
  await page.screenshot({ path: info.outputPath('waypoint-proxy-listeners.png'), fullPage: true });
  await proxy.openTab('clusters');
  await expect(proxy.clusters).toContainText('inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local');
  // Outbound clusters are shown by service FQDN, port and direction: only the unbound reviews-v1/v2 the route needs.
  await expect(proxy.row('clusters', 'outbound|9080||reviews-v1.bookinfo.svc.cluster.local')).toContainText(
    'reviews-v1.bookinfo.svc.cluster.local',
  );
  await expect(proxy.row('clusters', 'outbound|9080||reviews-v2.bookinfo.svc.cluster.local')).toContainText('outbound');
  await expect(proxy.rows('clusters')).toHaveCount(6);
  await page.screenshot({ path: info.outputPath('waypoint-proxy-clusters.png'), fullPage: true });
});

async function traceFrom(page: import('@playwright/test').Page, host: string) {
  await page.goto('/trace');
  const from = page.locator('select[name="from"]');
  const option = from.locator('option', { hasText: 'productpage' }).first();
  await from.selectOption((await option.getAttribute('value')) ?? '');
  await page.locator('input[name="host"]').fill(host);
  await page.locator('input[name="path"]').fill('/reviews/0');
  await page.getByRole('button', { name: 'Trace' }).click();
}

test('from productpage to reviews: ztunnel → waypoint (the HTTPRoute 90/10) → ztunnel', async ({ page }, info) => {
  await traceFrom(page, 'reviews:9080');
  const verdict = page.getByTestId('ambient-waypoint-verdict');
  await expect(verdict).toContainText('Through waypoint bookinfo/waypoint');
  const hops = page.getByTestId('ambient-hop');
  await expect(hops.first()).toHaveAttribute('data-role', 'client');
  await expect(hops.nth(1)).toHaveAttribute('data-hop', 'waypoint');
  await expect(page.getByTestId('ambient-filter-chain')).toContainText('inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local');
  const weights = page.getByTestId('ambient-weights');
  await expect(weights).toContainText('reviews-v1.bookinfo.svc.cluster.local 90%');
  await expect(weights).toContainText('reviews-v2.bookinfo.svc.cluster.local 10%');
  await expect(page.locator('[data-testid="ambient-hop"][data-role="server"]')).toHaveCount(2);
  await page.screenshot({ path: info.outputPath('trace-productpage-reviews-waypoint.png'), fullPage: true });
});

test('from productpage to ratings (no use-waypoint): the waypoint is bypassed, and why', async ({ page }, info) => {
  await traceFrom(page, 'ratings:9080');
  await expect(page.getByTestId('ambient-bypass-reason')).toHaveText('NoUseWaypoint');
  await expect(page.getByTestId('ambient-waypoint-verdict')).toContainText('no istio.io/use-waypoint label on Service bookinfo/ratings');
  await expect(page.getByTestId('ambient-direct-endpoints')).toContainText(':9080');
  await page.screenshot({ path: info.outputPath('trace-productpage-ratings-bypass.png'), fullPage: true });
});
