// Issue #26 acceptance in Chromium: `meshscope serve --auth token` against a fake cluster (signedInCluster.ts)
// where alice may list pods in `default` and bob in `default` and `shop`. Each sees only their namespaces in
// every API and page; bob's apply to shop runs as bob (impersonation) and is audited; alice's is refused by
// "Kubernetes" with its message; bad tokens are 401; writes without the session's CSRF token are 403.
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { HomePage } from '../pages/HomePage';

const TOKENS = { alice: 'token-alice-e2e', bob: 'token-bob-e2e' };
const VS_SHOP = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: cart-e2e, namespace: shop}
spec: {hosts: [cart], http: [{route: [{destination: {host: cart}}]}]}
`;

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto('/proxies');
  await expect(page).toHaveURL(/\/signin\?next=%2Fproxies/);
  await page.getByTestId('signin-token').fill(token);
  await page.getByTestId('signin-submit').click();
  // The proxies page renders server-side after the cookie is set: generous on a busy machine (a wait, not a figure).
  await expect(page).toHaveURL(/\/proxies$/, { timeout: 60_000 });
  await expect(page.getByTestId('signed-in-user')).toBeVisible({ timeout: 60_000 });
}

const csrf = async (page: Page): Promise<string> =>
  ((await (await page.request.get('/api/auth/session')).json()) as { csrfToken: string }).csrfToken;

test('without a session: pages go to sign-in, the API is 401, healthz stays open', async ({ page, request }) => {
  expect((await request.get('/api/proxies')).status()).toBe(401);
  expect((await request.get('/api/healthz')).status()).toBe(200);
  expect((await request.get('/api/auth/session')).status()).toBe(401);
  const bad = await request.post('/api/auth/login', { data: { token: 'not-a-token' } });
  expect(bad.status()).toBe(401);
  expect(bad.headers()['set-cookie']).toBeUndefined();
  expect((await request.get('/api/proxies', { headers: { authorization: 'Bearer not-a-token' } })).status()).toBe(401);
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByTestId('signin-token').fill('not-a-token');
  await page.getByTestId('signin-submit').click();
  await expect(page.getByTestId('signin-error')).toContainText('token not accepted');
});

test('alice sees default only, in every view; a shop proxy is 404 for her', async ({ page }, info) => {
  test.setTimeout(120_000);
  await signIn(page, TOKENS.alice);
  await expect(page.getByTestId('signed-in-user')).toHaveText('alice');
  const ids = await new HomePage(page).proxyIds();
  expect(ids.sort()).toEqual(['productpage-v1-1.default', 'reviews-v1-1.default']);
  await page.screenshot({ path: info.outputPath('alice-proxies.png'), fullPage: true });
  const api = page.request;
  const proxies = (await (await api.get('/api/proxies')).json()) as { proxies: { namespace: string }[] };
  expect(new Set(proxies.proxies.map((p) => p.namespace))).toEqual(new Set(['default']));
  const hidden = await api.get('/api/proxies/cart-v1-1.shop');
  expect(hidden.status()).toBe(404);
  expect(await hidden.json()).toEqual({ error: 'proxy "cart-v1-1.shop" not found' });
  const graph = (await (await api.get('/api/graph')).json()) as { nodes: { namespace: string }[] };
  expect(graph.nodes.every((n) => n.namespace === 'default')).toBe(true);
  expect(
    (
      await api.post('/api/simulate', {
        data: { proxyId: 'cart-v1-1.shop', request: { mode: 'inbound', port: 9080 } },
        headers: { 'x-csrf-token': await csrf(page) },
      })
    ).status(),
  ).toBe(404);
  await page.goto('/');
  await expect(page.locator('body')).not.toContainText('cart-v1-1');
  await page.screenshot({ path: info.outputPath('alice-overview.png'), fullPage: true });
});

test("bob sees default and shop; his apply to shop runs as bob and is audited; alice's is refused by the cluster", async ({
  browser,
}, info) => {
  // Two sign-ins and the cluster round trips of a dry run and an apply: more than the default budget here.
  test.setTimeout(180_000);
  const bobPage = await browser.newPage();
  await signIn(bobPage, TOKENS.bob);
  expect((await new HomePage(bobPage).proxyIds()).sort()).toEqual(['cart-v1-1.shop', 'productpage-v1-1.default', 'reviews-v1-1.default']);
  await bobPage.screenshot({ path: info.outputPath('bob-proxies.png'), fullPage: true });

  // A write without the session's CSRF token is refused before it reaches anything.
  expect((await bobPage.request.post('/api/sandbox/apply', { data: { draft: VS_SHOP, confirm: true } })).status()).toBe(403);
  const applied = await bobPage.request.post('/api/sandbox/apply', {
    data: { draft: VS_SHOP, confirm: true },
    headers: { 'x-csrf-token': await csrf(bobPage) },
  });
  expect(applied.status()).toBe(200);
  expect(await applied.json()).toMatchObject({ applied: true, dryRun: { ok: true } });
  const audit = (await (await bobPage.request.get('/api/audit')).json()) as {
    entries: { user: string; result: string; objects: unknown[] }[];
  };
  expect(audit.entries[0]).toMatchObject({
    user: 'bob',
    result: 'applied',
    objects: [{ kind: 'VirtualService', namespace: 'shop', name: 'cart-e2e' }],
  });
  const file = readFileSync(process.env.E2E_AUTH_AUDIT ?? '', 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(file.at(-1)).toMatchObject({ user: 'bob', groups: ['shop-team', 'system:authenticated'], action: 'apply', result: 'applied' });

  const alicePage = await browser.newPage();
  await signIn(alicePage, TOKENS.alice);
  const refused = await alicePage.request.post('/api/sandbox/apply', {
    data: { draft: VS_SHOP, confirm: true },
    headers: { 'x-csrf-token': await csrf(alicePage) },
  });
  const body = (await refused.json()) as { applied: boolean; items: { message: string }[] };
  expect(body.applied).toBe(false);
  expect(body.items[0]?.message).toMatch(
    /forbidden: User "alice" cannot patch resource "virtualservices" in API group "networking.istio.io" in the namespace "shop"/,
  );
  // Bob's audit view holds his entry; alice's (default only) shows neither shop entry.
  expect(((await (await alicePage.request.get('/api/audit')).json()) as { entries: unknown[] }).entries).toEqual([]);

  // Sign-out ends the session: the same cookie is no longer accepted.
  await bobPage.getByTestId('sign-out').click();
  await expect(bobPage).toHaveURL(/\/signin/, { timeout: 60_000 });
  expect((await bobPage.request.get('/api/proxies')).status()).toBe(401);
  await bobPage.close();
  await alicePage.close();
});

test('API clients may send the bearer token on each request instead of a session', async ({ request }) => {
  const r = await request.get('/api/proxies', { headers: { authorization: `Bearer ${TOKENS.bob}` } });
  expect(r.status()).toBe(200);
  const body = (await r.json()) as { proxies: { namespace: string }[] };
  expect(new Set(body.proxies.map((p) => p.namespace))).toEqual(new Set(['default', 'shop']));
});
