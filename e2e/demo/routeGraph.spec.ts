// Demo mesh (examples/demo/30-traffic.yaml): products 80% v1 / 20% v2 from storefront's sidecar, on the
// route graph: weighted edges labelled with their share (weight / sum of weights) and drawn wider for more
// traffic; tapping the route node on the canvas opens its JSON and its VirtualService rule.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';
import { TracePanel } from '../pages/TracePanel';

const PRODUCTS = 'products.catalog.svc.cluster.local';
const v = (subset: string) => `outbound|9080|${subset}|${PRODUCTS}`;

async function storefront(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  return body.proxies.find((p) => p.id.startsWith('storefront-'))!.id;
}

type EdgeInfo = { label: string; width: number };

test('weighted split 80/20: edge labels and widths, and a canvas tap opens the route and its source', async ({ page, request }, info) => {
  const id = await storefront(request);
  const proxy = new ProxyPage(page);
  const g = new TracePanel(page);
  await proxy.goto(id, `tab=graph&rc=9080&vh=${encodeURIComponent(`${PRODUCTS}:9080`)}`);
  await g.layoutDone();
  await expect(g.routeList.locator('tbody tr')).toHaveCount(1);
  await expect(g.routeList).toContainText(`${v('v1')} 80%`);
  await expect(g.routeList).toContainText(`${v('v2')} 20%`);

  const edges = await page.evaluate(
    ([a, b]) => {
      const cy = (
        window as unknown as {
          __routeCy: { edges: () => { toArray: () => Array<{ data: (k: string) => unknown; target: () => { id: () => string } }> } };
        }
      ).__routeCy;
      const out: Record<string, EdgeInfo> = {};
      for (const e of cy.edges().toArray()) {
        const t = e.target().id();
        if (t === `cluster:${a}` || t === `cluster:${b}`) out[t] = { label: String(e.data('label')), width: Number(e.data('width')) };
      }
      return out;
    },
    [v('v1'), v('v2')],
  );
  expect(edges[`cluster:${v('v1')}`]?.label).toBe('80%');
  expect(edges[`cluster:${v('v2')}`]?.label).toBe('20%');
  expect(edges[`cluster:${v('v1')}`]!.width).toBeGreaterThan(edges[`cluster:${v('v2')}`]!.width);

  // Tap the route node where cytoscape drew it.
  const pos = await page.evaluate(() => {
    const cy = (
      window as unknown as { __routeCy: { nodes: (s: string) => { first: () => { renderedPosition: () => { x: number; y: number } } } } }
    ).__routeCy;
    return cy.nodes('.route').first().renderedPosition();
  });
  const box = (await g.canvas.boundingBox())!;
  await page.mouse.click(box.x + pos.x, box.y + pos.y);
  await expect(g.details).toBeVisible();
  await expect(page).toHaveURL(/node=route/);
  await expect(page.getByTestId('graph-node-json')).toContainText('"weighted_clusters"');
  // The rule comes from translation's provenance (the proxy detail), not from matching names or counting.
  await expect(page.getByTestId('graph-source-rule')).toContainText('spec.http[0]');
  await expect(page.getByTestId('graph-source-rule')).toContainText('from translation');
  await page.screenshot({ path: info.outputPath('route-graph-weighted.png'), fullPage: true });
});
