// The ztunnel page on Bookinfo enrolled in ambient (project "waypoint", served with --ambient): what istiod sends
// ztunnel, as GET /api/ztunnel answers it — every pod a workload (HBONE for the ones istio-cni redirected), the
// reviews Service bound to the waypoint (services.go constructService: waypoint from istio.io/use-waypoint), and
// the three tables filterable; a workload links to /trace from it, the waypoint pod to its proxy page.
import { expect, test } from '@playwright/test';

test('the ztunnel page lists workloads, services and policies, filterable and linked', async ({ page, request }, info) => {
  const api = (await (await request.get('/api/ztunnel')).json()) as {
    workloads: Array<{ name: string }>;
    services: Array<{ name: string }>;
  };
  await page.goto('/ztunnel');
  await expect(page.getByRole('heading', { name: 'ztunnel', level: 1 })).toBeVisible();
  const workloads = page.getByTestId('ztunnel-workload-row');
  await expect(workloads).toHaveCount(api.workloads.length);
  const services = page.getByTestId('ztunnel-service-row');
  await expect(services).toHaveCount(api.services.length);
  // The reviews Service row (its anchor id is its namespace/hostname) names the waypoint it is bound to.
  await expect(page.locator('#svc-bookinfo-reviews-bookinfo-svc-cluster-local')).toContainText('waypoint');
  await page.screenshot({ path: info.outputPath('ztunnel-page.png'), fullPage: true });

  await page.getByTestId('ztunnel-workloads-filter').fill('productpage');
  await expect(workloads).toHaveCount(1);
  await expect(workloads.first()).toContainText('HBONE');
  await page.screenshot({ path: info.outputPath('ztunnel-filtered.png'), fullPage: true });
  // An ambient pod links to the trace from it.
  await expect(workloads.first().locator('td').nth(1).getByRole('link')).toHaveAttribute('href', /^\/trace\?from=productpage/);

  await page.getByTestId('ztunnel-workloads-filter').fill('waypoint');
  await expect(workloads.first().locator('td').nth(1).getByRole('link')).toHaveAttribute('href', /^\/proxies\/waypoint/);
});
