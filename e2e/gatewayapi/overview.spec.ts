// Bookinfo on the Gateway API (project "gatewayapi": platform/bookinfo.yaml + bookinfo-versions.yaml,
// gateway-api/bookinfo-gateway.yaml and route-reviews-90-10.yaml, and the bookinfo-gateway-istio deployment
// istiod's gateway deployment controller would create). The overview lists the Gateway with its status and
// proxy and each HTTPRoute with its rules and Accepted/ResolvedRefs status; the gateway trace goes through
// the HTTPRoute's rule (istiod names the Envoy route `<ns>.<route>.<rule>`, conversion.go convertHTTPRoute).
import { expect, test } from '@playwright/test';
import { TracePanel } from '../pages/TracePanel';

test('the overview shows the Gateway, its proxy, and the HTTPRoutes with rules and status', async ({ page }) => {
  await page.goto('/');
  const panel = page.getByTestId('gwapi-panel');
  await expect(panel).toBeVisible();

  const gw = panel.locator('[data-testid="gwapi-gateway"][data-name="default/bookinfo-gateway"]');
  await expect(gw).toContainText('class istio');
  await expect(gw.locator('[data-testid="condition"][data-type="Accepted"]').first()).toHaveAttribute('data-status', 'True');
  await expect(gw.locator('[data-testid="condition"][data-type="Programmed"]').first()).toHaveAttribute('data-status', 'True');
  const listener = gw.getByTestId('gwapi-listeners').locator('tbody tr');
  await expect(listener).toHaveCount(1);
  await expect(listener).toContainText('http');
  await expect(listener).toContainText('80');
  await expect(gw.getByTestId('gwapi-proxy')).toContainText('bookinfo-gateway-istio');

  // The gateway HTTPRoute: one rule with five matches to productpage:9080, accepted by the Gateway.
  const bookinfo = panel.locator('[data-testid="gwapi-route"][data-name="default/bookinfo"]');
  const rule = bookinfo.getByTestId('gwapi-rules').locator('tbody tr');
  await expect(rule).toHaveCount(1);
  await expect(rule).toContainText('default.bookinfo.0');
  await expect(rule).toContainText('path = /productpage');
  await expect(rule).toContainText('path prefix /static');
  await expect(rule).toContainText('productpage:9080');
  const parent = bookinfo.getByTestId('gwapi-parent');
  await expect(parent).toContainText('Gateway default/bookinfo-gateway');
  await expect(parent.locator('[data-type="Accepted"]')).toHaveAttribute('data-status', 'True');
  await expect(parent.locator('[data-type="ResolvedRefs"]')).toHaveAttribute('data-status', 'True');

  // The GAMMA route: parent Service reviews port 9080, backends reviews-v1 w90 and reviews-v2 w10.
  const reviews = panel.locator('[data-testid="gwapi-route"][data-name="default/reviews"]');
  await expect(reviews.getByTestId('gwapi-parent')).toContainText('Service default/reviews port 9080');
  const backends = reviews.getByTestId('gwapi-rules').locator('tbody tr');
  await expect(backends).toContainText('reviews-v1:9080 w90');
  await expect(backends).toContainText('reviews-v2:9080 w10');
});

test('a gateway trace from the overview goes through the HTTPRoute rule to productpage', async ({ page }) => {
  await page.goto('/');
  const gw = page.locator('[data-testid="gwapi-gateway"][data-name="default/bookinfo-gateway"]');
  await gw.getByTestId('gwapi-trace').click();
  await expect(page).toHaveURL(/\/proxies\/bookinfo-gateway-istio-[^?]+\?.*tab=trace/);
  const trace = new TracePanel(page);
  await trace.trace({ host: 'bookinfo.example.com', path: '/productpage' });
  await expect(trace.hop('listener')).toContainText('0.0.0.0_80');
  await expect(trace.hop('routeConfig')).toContainText('http.80');
  await expect(trace.hop('route')).toContainText('default.bookinfo.0');
  await expect(page.getByTestId('hop-route-from')).toContainText('Gateway API route default/bookinfo, rule 0');
  await expect(trace.clusters).toHaveCount(1);
  await expect(trace.clusters.first()).toHaveAttribute('data-cluster', 'outbound|9080||productpage.default.svc.cluster.local');

  // PathPrefix /static is a path_separated_prefix: /staticx matches no rule.
  await trace.trace({ host: 'bookinfo.example.com', path: '/staticx' });
  await expect(trace.error).toContainText('no route matched');
});
