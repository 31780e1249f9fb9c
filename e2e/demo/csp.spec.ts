// The Content-Security-Policy proxy.ts sends (nonce-based script-src, issue 14 item 11) must not break
// the app: every main page hydrates and runs its scripts (live updates, the route graph, tabs), and
// Chromium reports no CSP violation. Violations are caught from the page itself
// (`securitypolicyviolation` events, recorded by an init script CDP injects before any page script)
// and from the console ("Refused to …").
import { expect, type Page, test } from '@playwright/test';

async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp))];
}

test('pages render and run their scripts under the CSP, with no violation', async ({ page, request }) => {
  const violations = await watchCsp(page);
  const res = await page.goto('/proxies');
  expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await expect(page.getByTestId('proxies-table')).toBeVisible();
  // The live indicator turns "live" only once client code ran and opened /api/events.
  await expect(page.getByTestId('live-state')).toHaveText('● live');

  const list = (await (await request.get('/api/proxies')).json()) as { proxies: Array<{ id: string }> };
  const id = list.proxies.find((p) => p.id.startsWith('storefront-'))?.id ?? '';
  await page.goto(`/proxies/${encodeURIComponent(id)}?tab=routes`);
  await expect(page.getByRole('heading', { name: id })).toBeVisible();
  await expect(page.getByRole('tab', { name: /routes/i })).toHaveAttribute('aria-selected', 'true');

  await page.goto('/');
  await expect(page.getByTestId('live-state')).toHaveText('● live');
  await page.goto('/dump');
  await expect(page.locator('main')).not.toBeEmpty();
  // The sandbox's editor (CodeMirror) injects its styles at run time: allowed as inline styles.
  await page.goto('/sandbox');
  await expect(page.locator('.cm-editor')).toBeVisible();
  // Client-side navigation (RSC fetches) under the same policy.
  await page.goto('/');
  await page.getByRole('link', { name: 'meshscope' }).click();
  await expect(page.getByTestId('live-state')).toHaveText('● live');

  expect(await violations()).toEqual([]);
  // The policy does block, and the watcher does see it: an inline script without the nonce, slipped
  // into the page's HTML (what an injection would look like), is refused and reported.
  await page.route('**/proxies', async (route) => {
    const res = await route.fetch();
    const body = (await res.text()).replace('</head>', '<script>window.__injected = true</script></head>');
    await route.fulfill({ response: res, body });
  });
  await page.goto('/proxies');
  await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});
