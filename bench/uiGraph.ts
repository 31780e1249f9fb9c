// UI: the overview graph of a large mesh laid out, measured in Chromium with Playwright against the real
// server (`meshscope serve` on a generated directory, bench/uiServe.ts). The mesh: N services, 10 per
// namespace, one Sidecar per namespace (egress: its own namespace and istio-system) and the ingress gateway
// (generateMesh's `scoped`), so a sidecar routes within its namespace, as in a well-scoped mesh. Nodes =
// namespaces + services + workloads (2 per service) + proxies (1 per workload) ≈ 5 N.
// Figure: navigation → the graph drawn (data-layout-done), with the default view (collapsed to namespaces
// above 300 services + workloads). Detail: where the layout ran and its time, the server's document time,
// the longest main-thread task, and expanding one namespace. Run by `npm run bench` (bench/run.ts), or
// directly: `node --import tsx bench/uiGraph.ts`. Prints figures; asserts nothing.
import { type Browser, chromium, type Page } from '@playwright/test';
import { type CpuProfile, type ProfileSummary, summarise } from './profile';
import { median } from './table';
import { serveDir, writeSyntheticMesh } from './uiServe';
import { CHROMIUM_LAUNCH } from './uiTti';

export interface UiGraphRow {
  bench: string;
  size: string;
  figure: string;
  value: number;
  /** The browser main thread's CPU profile over the last measured load. */
  profile?: ProfileSummary;
}

/** Services for about `nodes` overview nodes (see the header). */
export const servicesForNodes = (nodes: number): number => Math.round((nodes - 4) / 5.1);

interface Sample {
  total: number;
  layoutMs: number;
  where: string;
  doc: number;
  longest: number;
  drawn: number;
}

async function loadOnce(page: Page, url: string): Promise<Sample> {
  const t0 = Date.now();
  await page.goto(url, { timeout: 300_000 });
  const graph = page.getByTestId('mesh-graph');
  await graph.and(page.locator('[data-layout-done="true"]')).waitFor({ timeout: 300_000 });
  const total = Date.now() - t0;
  const layoutMs = Number(await graph.getAttribute('data-layout-ms'));
  const where = (await graph.getAttribute('data-layout-where')) ?? '?';
  const drawn = Number(await graph.getAttribute('data-node-count'));
  const doc = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return n ? Math.round(n.responseEnd - n.startTime) : Number.NaN;
  });
  const longest = Math.round(await page.evaluate(() => (window as unknown as { __longest?: number }).__longest ?? Number.NaN));
  return { total, layoutMs, where, doc, longest, drawn };
}

async function measure(browser: Browser, nodesWanted: number, reps: number, expandAll: boolean): Promise<UiGraphRow[]> {
  const services = servicesForNodes(nodesWanted);
  const served = await serveDir(writeSyntheticMesh(services, { mesh: { namespaces: Math.ceil(services / 10), scoped: true } }));
  try {
    const g = (await (await fetch(`${served.url}/api/graph`)).json()) as {
      nodes: Array<{ kind: string; namespace: string }>;
      edges: unknown[];
    };
    const nodes = g.nodes.length;
    const size = `${nodes} nodes, ${g.edges.length} edges`;
    const page = await browser.newPage();
    // Long tasks are only reported to an observer registered before they happen: register at document start.
    await page.addInitScript(() => {
      const w = window as unknown as { __longest?: number };
      w.__longest = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__longest = Math.max(w.__longest ?? 0, e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await loadOnce(page, served.url); // warm-up: server caches, chunks in the browser cache
    const samples: Sample[] = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    for (let r = 0; r < reps - 1; r++) samples.push(await loadOnce(page, served.url));
    await cdp.send('Profiler.start');
    samples.push(await loadOnce(page, served.url));
    const profile = summarise(((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile);
    // Expand one namespace from the collapsed view (the select in the collapse bar) → drawn again.
    const expands: number[] = [];
    const expandLayout: number[] = [];
    let expandedDrawn = 0;
    if (await page.getByTestId('collapse-bar').count()) {
      for (let r = 0; r < reps; r++) {
        await loadOnce(page, served.url);
        const graph = page.getByTestId('mesh-graph');
        const t0 = Date.now();
        await page.getByTestId('expand-namespace').selectOption('ns-1');
        await page.locator('[data-testid="mesh-graph"][data-layout-done="true"]').waitFor({ timeout: 300_000 });
        await page.waitForFunction(() => new URL(location.href).searchParams.get('expand') === 'ns-1');
        expands.push(Date.now() - t0);
        expandLayout.push(Number(await graph.getAttribute('data-layout-ms')));
        expandedDrawn = Number(await graph.getAttribute('data-node-count'));
      }
    }
    const m = (f: (s: Sample) => number) => median(samples.map(f));
    const rows: UiGraphRow[] = [
      {
        bench: 'UI: overview graph laid out',
        size,
        value: m((s) => s.total),
        figure:
          `${m((s) => s.total)} ms (median of ${reps}: navigation → graph drawn; ${samples[0]!.drawn} nodes drawn, collapsed to namespaces); ` +
          `layout ${m((s) => s.layoutMs)} ms in the ${samples[0]!.where === 'worker' ? 'Web Worker' : samples[0]!.where} + draw; ` +
          `server document ${m((s) => s.doc)} ms; longest main-thread task ${m((s) => s.longest)} ms` +
          (expands.length
            ? `; expand one namespace → drawn ${median(expands)} ms (${expandedDrawn} nodes, layout ${median(expandLayout)} ms)`
            : '') +
          `; browser main thread ran JS/GC for ${profile.totalMs} ms of the last load`,
        profile,
      },
    ];
    if (expandAll) {
      const all: Sample[] = [];
      for (let r = 0; r < Math.min(reps, 3); r++) all.push(await loadOnce(page, `${served.url}/?expand=*`));
      const a = (f: (s: Sample) => number) => median(all.map(f));
      rows.push({
        bench: 'UI: overview graph laid out, every namespace expanded',
        size,
        value: a((s) => s.total),
        figure: `${a((s) => s.total)} ms (median of ${all.length}: navigation → all ${all[0]!.drawn} nodes drawn); layout ${a((s) => s.layoutMs)} ms in the ${all[0]!.where === 'worker' ? 'Web Worker' : all[0]!.where}; longest main-thread task ${a((s) => s.longest)} ms`,
      });
    }
    await page.close();
    return rows;
  } finally {
    await served.stop();
  }
}

/** Figures at about 1,000 and 5,000 nodes (BENCH_UI_GRAPH_NODES); the full expanded layout at the smallest. */
export async function benchUiGraph(
  sizes = (process.env.BENCH_UI_GRAPH_NODES ?? '1000,5000').split(',').map(Number),
): Promise<UiGraphRow[]> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const rows: UiGraphRow[] = [];
    const smallest = Math.min(...sizes);
    for (const n of sizes) rows.push(...(await measure(browser, n, 5, n === smallest)));
    return rows;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchUiGraph()) console.log(`${r.bench.padEnd(24)} | ${r.size.padEnd(28)} | ${r.figure}`);
}
