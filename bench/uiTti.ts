// UI time-to-interactive for a proxy with ~1k / 10k clusters, measured in Chromium with Playwright:
// from navigation start until the clusters table shows all its rows and answers a keystroke (the
// first filter applied). Run by `npm run bench` unless BENCH_UI=0 (bench/run.ts), or directly:
// `node --import tsx bench/uiTti.ts`. Prints figures; asserts nothing.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { systemChromium } from '../scripts/browser.mjs';
import { type CpuProfile, type ProfileSummary, summarise } from './profile';
import { median } from './table';
import { firstProxy, serveDir, writeSyntheticMesh } from './uiServe';

export interface UiTtiRow {
  bench: string;
  size: string;
  figure: string;
  /** The browser main thread's CPU profile over the last measured load (Chrome DevTools protocol). */
  profile?: ProfileSummary;
}

/** Where the time went in the page's fetch of its proxy detail (Resource Timing), ms from navigation. */
interface FetchTiming {
  request: number;
  firstByte: number;
  end: number;
  encodedBytes: number;
}

/** The Chromium the UI figures run in (CHROMIUM_PATH, else a system Chromium), or undefined when there is none. */
export function benchChromium(): string | undefined {
  const p = systemChromium();
  return p && existsSync(p) ? p : undefined;
}

/** Why the UI figures were not measured, when no Chromium is found. */
export const noChromium = (): string =>
  process.env.CHROMIUM_PATH
    ? `not measured: no Chromium at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}`
    : 'not measured: no Chromium (CHROMIUM_PATH unset, none of the system paths in scripts/browser.mjs exists)';

export const CHROMIUM_LAUNCH = {
  executablePath: benchChromium(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
};

async function measure(services: number, reps: number): Promise<UiTtiRow[]> {
  const served = await serveDir(writeSyntheticMesh(services));
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const { id, clusters, proxies } = await firstProxy(served.url);
    const url = `${served.url}/proxies/${encodeURIComponent(id)}?tab=clusters`;
    const page = await browser.newPage();
    await page.goto(url, { timeout: 300_000 }); // warm-up: server caches + Next compiles nothing at runtime
    const ttis: number[] = [];
    const filters: number[] = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    let profile: ProfileSummary | undefined;
    let timing: FetchTiming | undefined;
    for (let r = 0; r < reps; r++) {
      const last = r === reps - 1;
      if (last) await cdp.send('Profiler.start');
      const t0 = Date.now();
      await page.goto(url, { timeout: 300_000 });
      await page
        .getByTestId('clusters-table-count')
        .filter({ hasText: `${clusters} rows`, visible: true })
        .first()
        .waitFor({ timeout: 300_000 });
      const input = page.locator('[data-testid="clusters-table"] input[data-filter="fqdn"]');
      await input.fill('svc-1.');
      await page
        .getByTestId('clusters-table-count')
        .filter({ hasText: `of ${clusters} rows`, visible: true })
        .first()
        .waitFor({ timeout: 60_000 });
      ttis.push(Date.now() - t0);
      if (last) {
        profile = summarise(((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile);
        timing = await page.evaluate(() => {
          const e = performance.getEntriesByType('resource').find((x) => new URL(x.name).pathname.startsWith('/api/proxies/')) as
            | PerformanceResourceTiming
            | undefined;
          return e
            ? {
                request: Math.round(e.requestStart),
                firstByte: Math.round(e.responseStart),
                end: Math.round(e.responseEnd),
                encodedBytes: e.encodedBodySize,
              }
            : undefined;
        });
      }
      const t1 = Date.now();
      await input.fill('svc-2.');
      await page.locator('[data-testid="clusters-table"] [data-testid="vt-row"]', { hasText: 'svc-2.' }).first().waitFor();
      filters.push(Date.now() - t1);
    }
    return [
      {
        bench: 'UI time-to-interactive',
        size: `${clusters} clusters, ${proxies} proxies`,
        figure:
          `${median(ttis)} ms (median of ${reps}: navigation → table shown → first filter applied)` +
          (timing
            ? `; last load: the page's GET /api/proxies/ID sent at ${timing.request} ms, first byte ${timing.firstByte} ms, ` +
              `last byte ${timing.end} ms (${(timing.encodedBytes / 2 ** 20).toFixed(1)} MiB on the wire)`
            : '') +
          (profile ? `; browser main thread ran JS/GC for ${profile.totalMs} ms of it (the rest: waiting)` : ''),
        ...(profile ? { profile } : {}),
      },
      {
        bench: 'UI filter',
        size: `${clusters} clusters, ${proxies} proxies`,
        figure: `${median(filters)} ms (median of ${reps}; includes the 120 ms input debounce)`,
      },
    ];
  } finally {
    await browser.close();
    await served.stop();
  }
}

export async function benchUiTti(sizes = (process.env.BENCH_UI_SERVICES ?? '334,3334').split(',').map(Number)): Promise<UiTtiRow[]> {
  const rows: UiTtiRow[] = [];
  for (const s of sizes) rows.push(...(await measure(s, 3)));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchUiTti()) console.log(`${r.bench.padEnd(24)} | ${r.size.padEnd(28)} | ${r.figure}`);
}
