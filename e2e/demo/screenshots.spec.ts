// Screenshots of the demo mesh's overview (the default versioned-app graph) in both themes and of the /demo
// page's three columns (#23 §3), with what makes them readable across a room checked on the drawn graph:
// it fills its frame (one dimension at least 85%: fit, as cytoscape's fit with the layout's padding) and
// node labels are drawn at 10 px or more at the default zoom.
import { expect, test } from '@playwright/test';
import { OverviewPage } from '../pages/OverviewPage';

const THEME_KEY = 'meshscope-theme'; // components/layout/theme.ts

for (const theme of ['light', 'dark'] as const) {
  test(`demo overview, ${theme} theme: fits its frame with legible labels`, async ({ page }, info) => {
    await page.addInitScript(([k, t]) => localStorage.setItem(k!, t!), [THEME_KEY, theme]);
    // A room's screen (1080p). Measured with the earlier 11 px node font once the demo gained its ambient namespace:
    // 8.5 px labels at 1440×900, 9.5 px at 1080p; node labels are 13 px since (components/graph/elements.ts).
    await page.setViewportSize({ width: 1920, height: 1080 });
    const overview = new OverviewPage(page);
    await overview.goto();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const r = await overview.readability();
    expect(Math.max(r.fillWidth, r.fillHeight)).toBeGreaterThan(0.85);
    expect(r.smallestLabelPx).toBeGreaterThanOrEqual(10);
    await overview.graph.screenshot({ path: info.outputPath(`demo-overview-${theme}.png`) });
    await page.screenshot({ path: info.outputPath(`demo-overview-${theme}-page.png`), fullPage: true });
  });
}

test('the /demo page: configured, observed in process and Prometheus side by side', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/demo');
  await expect(page.getByTestId('column-configured')).toBeVisible();
  await expect(page.getByTestId('column-in-process')).toBeVisible();
  const prom = page.getByTestId('column-prometheus');
  await expect(prom).toBeVisible();
  // Side by side: the three columns share one row.
  const tops = await Promise.all(
    ['column-configured', 'column-in-process', 'column-prometheus'].map(async (id) => (await page.getByTestId(id).boundingBox())!.y),
  );
  expect(new Set(tops.map(Math.round)).size).toBe(1);
  // The e2e demo server runs without --prometheus: the column says how to configure it.
  await expect(prom.getByTestId('prometheus-howto')).toContainText('meshscope serve --prometheus URL');
  await page.screenshot({ path: info.outputPath('demo-page-three-columns.png'), fullPage: true });
});
