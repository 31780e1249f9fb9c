// Screenshots of Bookinfo's overview (the default versioned-app graph) in both themes (#23 §3), checked
// for readability on the drawn graph as e2e/demo/screenshots.spec.ts does.
import { expect, test } from '@playwright/test';
import { OverviewPage } from '../pages/OverviewPage';

const THEME_KEY = 'meshscope-theme'; // components/layout/theme.ts

for (const theme of ['light', 'dark'] as const) {
  test(`Bookinfo overview, ${theme} theme: fits its frame with legible labels`, async ({ page }, info) => {
    await page.addInitScript(([k, t]) => localStorage.setItem(k!, t!), [THEME_KEY, theme]);
    await page.setViewportSize({ width: 1440, height: 900 });
    const overview = new OverviewPage(page);
    await overview.goto();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const r = await overview.readability();
    expect(Math.max(r.fillWidth, r.fillHeight)).toBeGreaterThan(0.85);
    expect(r.smallestLabelPx).toBeGreaterThanOrEqual(10);
    await overview.graph.screenshot({ path: info.outputPath(`bookinfo-overview-${theme}.png`) });
  });
}
