// /dump → Compare two dumps (issue 21 §4): Istio's comparator pair (istioctl/pkg/writer/compare/testdata,
// ../shared as sidecar-config_dump.json / _diff.json) gives the resource-level differences istioctl's
// comparator reports (server/drift/comparator.test.ts derives them); a resource opens side by side with the
// differing line marked; a dump against meshscope's own translation of a Bookinfo pod is compared too.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const DIR = join(process.env.MESHSCOPE_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures'), 'envoy-config-dumps');

test("compare Istio's comparator pair on /dump: six differing resources, the changed field marked", async ({ page }, info) => {
  await page.goto('/dump');
  const compare = page.getByTestId('dump-compare');
  await compare.getByTestId('compare-expected-file').setInputFiles(join(DIR, 'sidecar-config_dump.json'));
  await compare.getByTestId('compare-actual-file').setInputFiles(join(DIR, 'sidecar-config_dump_diff.json'));
  await compare.getByTestId('compare-run').click();
  const view = compare.getByTestId('drift-view');
  await expect(view).toHaveAttribute('data-in-sync', 'false');
  await expect(view.getByTestId('drift-verdict')).toContainText(
    '2 changed, 2 only in sidecar-config_dump_diff.json, 2 only in sidecar-config_dump.json',
  );
  await expect(view.getByTestId('drift-resource')).toHaveCount(6);
  const row = view.locator('[data-testid="drift-resource"][data-name="connect_terminate"]');
  await row.getByRole('button').click();
  await expect(row.getByTestId('drift-side-expected').locator('span.hit')).toHaveText([/"use_remote_address": false,/]);
  await expect(row.getByTestId('drift-side-actual').locator('span.hit')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('dump-compare.png'), fullPage: true });
});

test("a dump against meshscope's translation of a proxy: a foreign dump is far from in sync", async ({ page }) => {
  await page.goto('/dump');
  const compare = page.getByTestId('dump-compare');
  const select = compare.getByTestId('compare-proxy');
  await expect(select.locator('option')).not.toHaveCount(1);
  const first = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(first!);
  await compare.getByTestId('compare-actual-file').setInputFiles(join(DIR, 'sidecar-config_dump.json'));
  await compare.getByTestId('compare-run').click();
  const view = compare.getByTestId('drift-view');
  await expect(view).toHaveAttribute('data-in-sync', 'false');
  await expect(view.getByTestId('drift-verdict')).toContainText(`only in meshscope (${first})`);
});
