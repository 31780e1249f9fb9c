// Bad input in the UI: a file with a YAML syntax error, a VirtualService with a field of the wrong type
// and an unknown kind are written into the served directory. The open overview lists each with its
// location (file, document, line, object, field path) without a reload, the VirtualService is marked "not
// translated", the rest of the mesh keeps translating, and removing the file clears the errors again.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { OverviewPage } from '../pages/OverviewPage';

const DIR = process.env.E2E_BOOKINFO_DIR!;
const BAD = join(DIR, 'zz-bad-input.yaml');

const BAD_YAML = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews-broken
  namespace: default
spec:
  hosts: [reviews]
  http:
  - route:
    - destination: {host: reviews, subset: v1}
      weight: "eighty"
---
apiVersion: example.com/v1
kind: FrobnicatorPolicy
metadata: {name: frob, namespace: default}
spec: {level: 11}
---
apiVersion: v1
kind: Service
metadata:
  name: broken
  ports: [oops
`;

test('located input errors appear live, the rest keeps translating, and clear when the file goes', async ({ page, request }, info) => {
  const overview = new OverviewPage(page);
  await overview.goto();
  await expect(page.getByText('No input errors.')).toBeVisible();
  try {
    writeFileSync(BAD, BAD_YAML);
    const table = page.getByTestId('errors-table');
    await expect(table).toBeVisible({ timeout: 15_000 });
    const broken = table.locator('tr', { hasText: 'VirtualService default/reviews-broken' });
    const wrongType = broken.filter({ hasText: 'spec.http[0].route[0].weight' });
    await expect(wrongType).toContainText('zz-bad-input.yaml');
    await expect(wrongType.locator('td').nth(2)).toHaveText('0');
    await expect(wrongType.locator('td').nth(3)).toHaveText('11'); // line of `weight:` in the file
    // Its one "not translated" note says why no proxy gets config from it.
    await expect(broken.and(page.locator('tr.not-translated'))).toContainText('not translated: cannot be read');
    await expect(table.locator('tr', { hasText: 'FrobnicatorPolicy default/frob' })).toContainText('unknown kind FrobnicatorPolicy');
    const syntax = table.locator('tr', { hasText: 'YAML syntax error' });
    await expect(syntax.locator('td').nth(2)).toHaveText('2');
    await page.screenshot({ path: info.outputPath('input-errors.png'), fullPage: true });
    // The other objects still translate: every Bookinfo proxy is there with its route configs.
    const proxies = (await (await request.get('/api/proxies')).json()) as { proxies: { id: string; labels: Record<string, string> }[] };
    const pp = proxies.proxies.find((p) => p.labels.app === 'productpage')!;
    const dump = (await (await request.get(`/debug/config_dump?proxyID=${encodeURIComponent(pp.id)}&type=routes`)).json()) as {
      configs: { dynamic_route_configs: { route_config: { name: string } }[] }[];
    };
    expect(dump.configs[0]!.dynamic_route_configs.map((r) => r.route_config.name)).toContain('9080');
  } finally {
    rmSync(BAD, { force: true });
  }
  await expect(page.getByText('No input errors.')).toBeVisible({ timeout: 15_000 });
});
