// The Mesh config page on the embedded demo mesh (no ConfigMap istio-system/istio, no --mesh-config):
// istiod's DefaultMeshConfig is in force, and the page, /api/mesh and /debug/mesh say so.
import { expect, test } from '@playwright/test';

test('the nav reaches the Mesh config page: origin, effective settings, MeshConfig JSON', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Mesh config' }).click();
  await expect(page).toHaveURL(/\/mesh$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mesh config' })).toBeVisible();
  await expect(page.getByTestId('mesh-origin')).toContainText("istiod's defaults");
  const settings = page.getByTestId('mesh-settings');
  await expect(settings.locator('tr[data-field="outboundTrafficPolicy.mode"] td').nth(1)).toHaveText('ALLOW_ANY');
  await expect(settings.locator('tr[data-field="inboundTrafficPolicy.mode"] td').nth(1)).toHaveText('PASSTHROUGH');
  await expect(settings.locator('tr[data-field="rootNamespace"] td').nth(1)).toHaveText('istio-system');
  await expect(page.getByTestId('mesh-json')).toContainText('"enableAutoMtls": true');
  await page.screenshot({ path: info.outputPath('mesh-config.png'), fullPage: true });
});

test('/debug/mesh is the MeshConfig JSON; /api/mesh adds where it came from', async ({ request }) => {
  const mesh = await (await request.get('/debug/mesh')).json();
  // DefaultMeshConfig (pkg/config/mesh/mesh.go)
  expect(mesh).toMatchObject({
    rootNamespace: 'istio-system',
    enableAutoMtls: true,
    connectTimeout: '10s',
    outboundTrafficPolicy: { mode: 'ALLOW_ANY' },
    defaultServiceExportTo: ['*'],
  });
  const api = await (await request.get('/api/mesh')).json();
  expect(api.origin).toEqual({ source: 'defaults' });
  expect(api.options.outboundTrafficPolicy).toBe('ALLOW_ANY');
});
