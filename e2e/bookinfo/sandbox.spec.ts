// The what-if sandbox, as issue #9's acceptance states it, on Bookinfo with virtual-service-all-v1.yaml.
// The served directory is switched from the reviews jason/v2/v3 rule to Istio's all-v1 rules for this
// file (and back afterwards): the live mesh then sends 100% of reviews traffic to v1.
// Expectations follow Istio's semantics, not our output: a VirtualService without `gateways` binds to
// the mesh (sidecars) only, so the ingress gateway never changes; every Bookinfo sidecar imports the
// reviews VirtualService (no Sidecar resource, exportTo *), so every sidecar's 9080 route config changes;
// a weighted destination is a distribution over subsets by weight (HTTPRouteDestination.weight).
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { bookinfo } from '../../server/testing/paths';
import { SandboxPage } from '../pages/SandboxPage';

const DIR = process.env.E2E_BOOKINFO_DIR!;
const JASON = join(DIR, 'networking/virtual-service-reviews-jason-v2-v3.yaml');
const PARKED = `${JASON}.parked`;
const ALL_V1 = join(DIR, 'networking/virtual-service-all-v1.yaml');

interface LiveVs {
  kind: string;
  metadata: { name: string };
  spec: { http?: { match?: unknown; route: { destination: { subset?: string } }[] }[] };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  renameSync(JASON, PARKED);
  copyFileSync(bookinfo('networking', 'virtual-service-all-v1.yaml'), ALL_V1);
  // The file watcher picks the change up: wait until the live reviews rule is all-v1.
  await expect.poll(() => liveReviews(request), { timeout: 30_000 }).toBe('[["v1"]]');
});

/** The live reviews rule's subsets per http route, from /debug/configz. */
async function liveReviews(request: APIRequestContext): Promise<string> {
  const configs = (await (await request.get('/debug/configz')).json()) as LiveVs[];
  const reviews = configs.find((c) => c.kind === 'VirtualService' && c.metadata.name === 'reviews');
  return JSON.stringify(reviews?.spec.http?.map((h) => h.route.map((r) => r.destination.subset)));
}

test.afterAll(async ({ request }) => {
  rmSync(ALL_V1, { force: true });
  if (existsSync(PARKED)) renameSync(PARKED, JASON);
  // The specs after this one expect the served jason → v2 / else v3 rule back: wait until it is live.
  await expect.poll(() => liveReviews(request), { timeout: 30_000 }).toBe('[["v2"],["v3"]]');
});

const SHADOWED = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
  namespace: default
spec:
  hosts:
  - reviews
  http:
  - route:
    - destination:
        host: reviews
        subset: v1
  - match:
    - headers:
        end-user:
          exact: jason
    route:
    - destination:
        host: reviews
        subset: v2
`;

test('reviews 100/0 → 50/50: blast radius, productpage diff, request check, shareable link', async ({ page, context, request }, info) => {
  const proxies = (
    (await (await request.get('/api/proxies')).json()) as { proxies: { id: string; type: string; labels: Record<string, string> }[] }
  ).proxies;
  const sidecars = proxies.filter((p) => p.type === 'sidecar').map((p) => p.id);
  const gateway = proxies.find((p) => p.type === 'router')!.id;
  const productpage = proxies.find((p) => p.labels.app === 'productpage')!.id;

  // Overview → the reviews rule → "Load into sandbox".
  await page.goto('/');
  const row = page.getByTestId('routes-list').locator('tr', { hasText: 'default/reviews' }).first();
  await row.getByTestId('load-into-sandbox').click();
  await expect(page).toHaveURL(/\/sandbox/);
  const sb = new SandboxPage(page);
  await sb.editorReady();
  await expect.poll(() => sb.text()).toContain('name: reviews');
  const rule = page.getByTestId('sb-rule').first();
  await expect(rule.getByTestId('sb-destination')).toHaveCount(1);

  // A second destination (v2, from the live DestinationRule's subsets), then the sliders 100/0 → 50/50.
  await rule.getByTestId('add-destination').click();
  await expect(rule.getByTestId('weight-value')).toHaveText(['100%', '0%']);
  await rule.getByTestId('weight-slider').nth(1).fill('50');
  await expect(rule.getByTestId('weight-value')).toHaveText(['50%', '50%']);
  const draft = await sb.text();
  expect(draft).toMatch(/subset: v1\n\s+weight: 50/);
  expect(draft).toMatch(/subset: v2\n\s+weight: 50/);

  // Blast radius: exactly the sidecars (they all route to reviews), not the ingress gateway.
  await expect.poll(async () => (await sb.blastProxies()).sort(), { timeout: 30_000 }).toEqual([...sidecars].sort());
  expect(await sb.blastProxies()).not.toContain(gateway);

  // productpage's diff: the reviews route's weights v1 100 → v1 50 / v2 50.
  await sb.blast.locator(`tr[data-proxy="${productpage}"] button`).click();
  await expect(sb.diff).toHaveAttribute('data-proxy', productpage);
  const change = sb.diff.getByTestId('route-changes').locator('tr', { hasText: 'reviews' }).first();
  await expect(change.getByTestId('route-change-weights')).toContainText('v1 100');
  await expect(change.getByTestId('route-change-weights')).toContainText('v2 50');

  // Request check productpage → GET reviews:9080/reviews/1: live 100% v1, draft 50/50.
  await sb.checks.getByTestId('check-proxy').selectOption(productpage);
  await sb.checks.getByTestId('check-host').fill('reviews:9080');
  await sb.checks.getByTestId('check-path').fill('/reviews/1');
  await sb.checks.getByTestId('check-add').click();
  const check = sb.checks.getByTestId('check-row').first();
  await expect(check).toHaveAttribute('data-name', 'productpage → GET reviews:9080/reviews/1');
  await expect(check.getByTestId('check-live')).toHaveAttribute('data-distribution', JSON.stringify({ 'reviews.default v1': 100 }), {
    timeout: 30_000,
  });
  await expect(check.getByTestId('check-draft')).toHaveAttribute(
    'data-distribution',
    JSON.stringify({ 'reviews.default v1': 50, 'reviews.default v2': 50 }),
  );
  // Kept as a routing contract (what the draft does: v1 at 50%), which then passes on the draft.
  await check.getByRole('button', { name: 'save as contract' }).click();
  await expect(sb.checks.getByTestId('contract-row').first()).toContainText('pass', { timeout: 30_000 });
  await page.screenshot({ path: info.outputPath('sandbox-50-50.png'), fullPage: true });

  // The coloured route graph of productpage.
  await sb.diff.getByRole('tab', { name: 'Route graph' }).click();
  await expect(page.getByTestId('route-graph-canvas')).toHaveAttribute('data-layout-done', 'true', { timeout: 20_000 });
  await page.getByTestId('sandbox-diff-graph').screenshot({ path: info.outputPath('sandbox-route-graph.png') });

  // What the draft produces for productpage: its reviews routes as the proxy page's table, and the JSON diff.
  await sb.diff.getByRole('tab', { name: 'What this produces' }).click();
  const produced = page.getByTestId('sandbox-produces');
  await expect(produced).toContainText('reviews');
  await expect(produced).toContainText('outbound|9080|v2|reviews.default.svc.cluster.local');
  await sb.diff.getByRole('tab', { name: /Envoy JSON/ }).click();
  await expect(sb.diff.getByTestId('resource-json-diff').first()).toBeVisible();
  await sb.diff.screenshot({ path: info.outputPath('sandbox-envoy-json.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: info.outputPath('sandbox-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The URL holds the draft: a new tab shows the same draft and check.
  await page.waitForURL(/[?&]d=/);
  await expect.poll(() => new URL(page.url()).searchParams.get('c')).not.toBeNull();
  const other = await context.newPage();
  await other.goto(page.url());
  const sb2 = new SandboxPage(other);
  await sb2.editorReady();
  expect(await sb2.text()).toBe(draft);
  await expect(sb2.checks.getByTestId('check-row')).toHaveCount(1);
  await other.close();
});

test('a catch-all before a header match: the shadowed rule is flagged at its line', async ({ page }, info) => {
  await page.goto('/sandbox');
  const sb = new SandboxPage(page);
  await sb.editorReady();
  await sb.paste(SHADOWED);
  const line = SHADOWED.split('\n').indexOf('  - match:') + 1;
  const finding = sb.problems.getByTestId('sandbox-finding').filter({ hasText: 'http[1]' }).first();
  await expect(finding).toBeVisible({ timeout: 30_000 });
  await expect(finding).toHaveAttribute('data-code', /^IST/);
  await expect(finding).toHaveAttribute('data-line', String(line));
  // …and in the editor, as a diagnostic on that line.
  await expect(page.locator('.cm-lintRange-warning, .cm-lintRange-error, .cm-lintRange-info').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('sandbox-shadowed.png'), fullPage: true });
});

test('invalid YAML, then an unknown field: located errors, no crash, the last result stays', async ({ page }, info) => {
  await page.goto('/sandbox');
  const sb = new SandboxPage(page);
  await sb.editorReady();
  // The catch-all now sends reviews to v3: every sidecar changes (the rule after it is dropped, as Istio does).
  await sb.paste(SHADOWED.replace('subset: v1', 'subset: v3'));
  await expect(sb.blast).toBeVisible({ timeout: 30_000 });
  await sb.evaluated();
  const before = await sb.blastProxies();
  expect(before.length).toBeGreaterThan(0);

  // Invalid YAML: a syntax error at its line; the previous evaluation stays on screen.
  const broken = SHADOWED.replace('  hosts:\n  - reviews', '  hosts: [reviews\n  oops: {');
  await sb.paste(broken);
  await expect(sb.status).toHaveAttribute('data-state', 'unparsed');
  const syntax = sb.problems.getByTestId('sandbox-error').first();
  await expect(syntax).toContainText('YAML syntax error');
  await expect(syntax).toHaveAttribute('data-line', /^\d+$/);
  expect(await sb.blastProxies()).toEqual(before);
  await page.screenshot({ path: info.outputPath('sandbox-invalid-yaml.png'), fullPage: true });

  // An unknown field: the server locates it (line, field path); the page keeps working.
  const unknown = SHADOWED.replace('  hosts:\n', '  hostz: [nope]\n  hosts:\n');
  await sb.paste(unknown);
  const line = unknown.split('\n').indexOf('  hostz: [nope]') + 1;
  const err = sb.problems.getByTestId('sandbox-error').filter({ hasText: 'hostz' }).first();
  await expect(err).toBeVisible({ timeout: 30_000 });
  await expect(err).toHaveAttribute('data-line', String(line));
  await expect(sb.blast).toBeVisible();
  await page.screenshot({ path: info.outputPath('sandbox-unknown-field.png'), fullPage: true });
});
