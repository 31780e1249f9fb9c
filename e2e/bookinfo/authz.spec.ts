// Issue 13 acceptance in the browser: Bookinfo + an AuthorizationPolicy allowing only productpage's identity
// (cluster.local/ns/default/sa/bookinfo-productpage) to GET /reviews/* on reviews. Tracing an inbound request
// on a reviews proxy: productpage's identity is allowed by default/reviews-viewer rule 0; ratings' is denied
// with "RBAC: access denied" naming the policy (Envoy RBAC: ALLOW denies what no policy matches). The Security
// tab lists the policy with its rule. The policy file is added to the served directory and removed after.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ProxyPage } from '../pages/ProxyPage';
import { TracePanel } from '../pages/TracePanel';

test.describe.configure({ mode: 'serial' });

const DIR = process.env.E2E_BOOKINFO_DIR!;
const POLICY_FILE = join(DIR, 'authz-reviews.yaml');
const POLICY = readFileSync(fileURLToPath(new URL('../../server/acceptance/testdata/authz-reviews.yaml', import.meta.url)), 'utf8');

async function reviewsWithPolicy(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const id = body.proxies.find((p) => p.id.startsWith('reviews-v1-'))!.id;
  // The watched directory picks the new file up; wait until the proxy's config carries the RBAC filter.
  await expect
    .poll(async () => JSON.stringify(await (await request.get(`/api/proxies/${encodeURIComponent(id)}?tables=0`)).json()), {
      timeout: 20_000,
    })
    .toContain('ns[default]-policy[reviews-viewer]-rule[0]');
  return id;
}

test.beforeAll(() => writeFileSync(POLICY_FILE, POLICY));
test.afterAll(() => rmSync(POLICY_FILE, { force: true }));

const PRODUCTPAGE = 'cluster.local/ns/default/sa/bookinfo-productpage';
const RATINGS = 'cluster.local/ns/default/sa/bookinfo-ratings';

async function traceFrom(page: import('@playwright/test').Page, principal: string): Promise<TracePanel> {
  const trace = new TracePanel(page);
  await trace.field('mode').selectOption('inbound');
  await trace.field('port').fill('9080');
  await trace.field('host').fill('reviews:9080');
  await trace.field('path').fill('/reviews/1');
  await trace.field('sourcePrincipal').fill(principal);
  await page.getByTestId('trace-submit').click();
  return trace;
}

test("trace: productpage's identity is allowed by default/reviews-viewer rule 0", async ({ page, request }, info) => {
  const id = await reviewsWithPolicy(request);
  await new ProxyPage(page).goto(id, 'tab=trace');
  const trace = await traceFrom(page, PRODUCTPAGE);
  await expect(page.getByTestId('hop-authorization')).toContainText('allow — default/reviews-viewer rule 0');
  await expect(trace.hop('cluster')).toContainText('inbound|9080||');
  await expect(trace.error).toHaveCount(0);
  await expect(page).toHaveURL(/from=cluster.local/);
  await page.screenshot({ path: info.outputPath('authz-trace-productpage-allowed.png'), fullPage: true });
});

test("trace: ratings' identity is denied — RBAC: access denied, naming the policy and why its rule does not match", async ({
  page,
  request,
}, info) => {
  const id = await reviewsWithPolicy(request);
  await new ProxyPage(page).goto(id, 'tab=trace');
  const trace = await traceFrom(page, RATINGS);
  await expect(trace.error).toContainText('RBAC: access denied');
  await expect(page.getByTestId('hop-authorization')).toContainText('deny — default/reviews-viewer');
  const rejected = trace.rejectedAt('authorization');
  await expect(rejected).toHaveCount(1);
  await expect(rejected).toContainText('ns[default]-policy[reviews-viewer]-rule[0]');
  await expect(rejected).toContainText('bookinfo-ratings does not match');
  await expect(trace.hop('cluster')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('authz-trace-ratings-denied.png'), fullPage: true });
});

test('Security tab: the policy that applies, its rule, and the inbound ports / cluster TLS', async ({ page, request }, info) => {
  const id = await reviewsWithPolicy(request);
  const proxy = new ProxyPage(page);
  await proxy.goto(id, 'tab=security');
  const tab = page.getByTestId('security-tab');
  const policy = tab.locator('[data-testid="security-policy"][data-policy="default/reviews-viewer"]');
  await expect(policy).toContainText('ALLOW');
  await expect(policy).toContainText('selector app=reviews');
  await expect(policy.getByTestId('security-rule')).toContainText('ns[default]-policy[reviews-viewer]-rule[0]');
  await expect(policy.getByTestId('security-rule')).toContainText(`principals: ${PRODUCTPAGE}`);
  await expect(policy.getByTestId('security-rule')).toContainText('methods: GET; paths: /reviews/*');
  await expect(tab.getByTestId('security-ports')).toContainText('9080');
  // Bookinfo as shipped has no PeerAuthentication: PERMISSIVE, the mesh default (policy_applier.go).
  const port = tab.locator('[data-testid="security-port"][data-port="9080"]');
  await expect(port.getByTestId('security-port-mode')).toHaveText('PERMISSIVE');
  await expect(port.getByTestId('security-port-source')).toHaveText('mesh default');
  // Auto mTLS towards Bookinfo's sidecars (enableAutoMtls defaults to true).
  await expect(
    tab.locator('[data-testid="security-cluster"][data-cluster="outbound|9080||ratings.default.svc.cluster.local"]'),
  ).toContainText('auto mTLS');
  await page.screenshot({ path: info.outputPath('authz-security-tab.png'), fullPage: true });
});

// A workload PeerAuthentication STRICT on reviews: the Security tab names it as the source of 9080's mode; an
// Istio mTLS client (tls=mtls) passes the Transport hop and reaches the RBAC step; plaintext is rejected on the
// STRICT port (Istio's simulator: only `tls` transport chains remain, so no chain matches), with the note.
const PA_FILE = join(DIR, 'pa-reviews-strict.yaml');
const PA = `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: reviews-strict, namespace: default}
spec:
  selector: {matchLabels: {app: reviews}}
  mtls: {mode: STRICT}
`;

test('Security tab names the PeerAuthentication behind a STRICT port; the trace shows the mTLS hop', async ({ page, request }, info) => {
  const id = await reviewsWithPolicy(request);
  writeFileSync(PA_FILE, PA);
  try {
    await expect
      .poll(async () => JSON.stringify(await (await request.get(`/api/proxies/${encodeURIComponent(id)}?tables=0`)).json()), {
        timeout: 20_000,
      })
      .toContain('reviews-strict');
    await new ProxyPage(page).goto(id, 'tab=security');
    const port = page.locator('[data-testid="security-port"][data-port="9080"]');
    await expect(port.getByTestId('security-port-mode')).toHaveText('STRICT');
    await expect(port.getByTestId('security-port-source')).toHaveText('from PeerAuthentication default/reviews-strict (workload)');
    await page.screenshot({ path: info.outputPath('mtls-security-tab-strict.png'), fullPage: true });

    await new ProxyPage(page).goto(id, 'tab=trace');
    const trace = new TracePanel(page);
    await trace.field('tls').selectOption('mtls');
    await traceFrom(page, PRODUCTPAGE);
    await expect(page).toHaveURL(/tls=mtls/);
    await expect(trace.hop('transport')).toContainText('mTLS');
    await expect(trace.hop('transport')).toContainText('accepted by the chain');
    await expect(trace.hop('authorization')).toContainText('allow — default/reviews-viewer rule 0');
    await expect(trace.error).toHaveCount(0);
    await page.screenshot({ path: info.outputPath('mtls-trace-mtls-allowed.png'), fullPage: true });

    await trace.field('tls').selectOption('plaintext');
    await page.getByTestId('trace-submit').click();
    await expect(trace.error).toContainText('no filter chains matched');
    await expect(trace.hop('transport')).toContainText('rejected — plaintext sent to a port that accepts only mTLS (STRICT)');
    await expect(trace.hop('transport').getByTestId('hop-detail')).toContainText('PeerAuthentication mode STRICT');
    await page.screenshot({ path: info.outputPath('mtls-trace-plaintext-strict.png'), fullPage: true });
  } finally {
    rmSync(PA_FILE, { force: true });
  }
});
