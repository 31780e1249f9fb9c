// Overview on Istio's Bookinfo (platform + destination-rule-all + reviews jason v2/v3 + bookinfo-gateway)
// with our ingress gateway, served from E2E_BOOKINFO_DIR (a temp copy this spec may edit).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseAllDocuments } from 'yaml';
import { appBoxes, countsFromInputs, OverviewPage, workloadsFromInputs } from '../pages/OverviewPage';

const DIR = process.env.E2E_BOOKINFO_DIR!;
const VS_FILE = join(DIR, 'networking', 'virtual-service-reviews-jason-v2-v3.yaml');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(f) ? [p] : [];
  });
}
const parseAll = (t: string) => parseAllDocuments(t).map((d) => d.toJS() as unknown);

test('the Bookinfo overview (versioned app): reviews boxed with its versions, one productpage → reviews edge for both rules', async ({
  page,
}, info) => {
  const texts = yamlFiles(DIR).map((f) => readFileSync(f, 'utf8'));
  const expected = countsFromInputs(texts, parseAll);
  const workloads = workloadsFromInputs(texts, parseAll);
  const boxes = appBoxes(workloads);
  const overview = new OverviewPage(page);
  await overview.goto();
  await expect(overview.graph).toHaveAttribute(
    'data-node-count',
    String(expected.namespaces + expected.services + expected.workloads + boxes.length),
  );
  const { nodes, edges } = await overview.content();
  // Bookinfo's reviews-v1/v2/v3 Deployments (app: reviews, version: vN): one box, three version nodes.
  const reviews = workloads.filter((w) => w.app === 'reviews').map((w) => w.version);
  expect(
    nodes
      .filter((n) => n.parent === 'app:default/reviews')
      .map((n) => n.label.split('\n')[0])
      .sort(),
  ).toEqual(reviews.sort());
  // virtual-service-reviews-jason-v2-v3.yaml: end-user=jason → v2, else v3: two rules, no split — one edge, no number on it.
  const REVIEWS = 'svc:default/reviews.default.svc.cluster.local';
  const pp = edges.filter((e) => e.source === 'wl:default/Deployment/productpage-v1' && e.target === REVIEWS && e.kind === 'route');
  expect(pp.map((e) => [e.full, e.label])).toEqual([['reviews http[0] → v2; reviews http[1] → v3', '']]);
  await page.screenshot({ path: info.outputPath('bookinfo-overview-versioned-app.png'), fullPage: true });
});

test('the Bookinfo overview per proxy: node count from the inputs, the jason rule and the gateway route', async ({ page }, info) => {
  const expected = countsFromInputs(
    yamlFiles(DIR).map((f) => readFileSync(f, 'utf8')),
    parseAll,
  );
  const overview = new OverviewPage(page);
  await overview.goto('graphType=proxy');
  await expect(overview.graph).toHaveAttribute('data-node-count', String(expected.total));
  const { nodes, edges } = await overview.content();
  expect(nodes.filter((n) => n.kind === 'service')).toHaveLength(expected.services);
  // virtual-service-reviews-jason-v2-v3.yaml: end-user=jason → v2, everyone else → v3 (http[0], http[1]).
  const productpage = nodes.find((n) => n.kind === 'proxy' && n.id.startsWith('proxy:productpage-v1'))!;
  const fromPP = edges.filter((e) => e.source === productpage.id && e.kind === 'route').map((e) => e.full);
  expect(fromPP).toEqual(['reviews http[0] → v2', 'reviews http[1] → v3']);
  // bookinfo-gateway.yaml binds VirtualService `bookinfo` (hosts *) to the gateway: gateway → productpage.
  const gw = nodes.find((n) => n.kind === 'proxy' && n.label.includes('[gateway]'))!;
  expect(edges.filter((e) => e.source === gw.id && e.kind === 'route').map((e) => e.target)).toEqual([
    'svc:default/productpage.default.svc.cluster.local',
  ]);
  // destination-rule-all.yaml: reviews has subsets v1, v2, v3.
  expect(nodes.find((n) => n.id === 'svc:default/reviews.default.svc.cluster.local')!.label).toContain('[subsets 3]');
  await page.screenshot({ path: info.outputPath('bookinfo-overview.png'), fullPage: true });
});

test('a VirtualService change in the file source shows up in the open overview without reload', async ({ page }, info) => {
  const original = readFileSync(VS_FILE, 'utf8');
  const overview = new OverviewPage(page);
  await overview.goto();
  await expect(page.getByTestId('live-state')).toHaveText('● live');
  try {
    // Everyone else now goes to v1 instead of v3.
    writeFileSync(VS_FILE, original.replace(/subset: v3/g, 'subset: v1'));
    await expect
      .poll(async () => (await overview.content()).edges.some((e) => e.full.includes('reviews http[1] → v1')), { timeout: 20_000 })
      .toBe(true);
    // The proxies the event named are highlighted for a few seconds.
    await expect.poll(() => overview.changedNodeCount(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(overview.routes).toContainText('default/reviews http[1]');
    await page.screenshot({ path: info.outputPath('bookinfo-overview-live.png'), fullPage: true });
  } finally {
    writeFileSync(VS_FILE, original);
  }
  await expect
    .poll(async () => (await overview.content()).edges.some((e) => e.full.includes('reviews http[1] → v3')), { timeout: 20_000 })
    .toBe(true);
});
