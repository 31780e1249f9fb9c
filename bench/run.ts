// `npm run bench`: every figure of issue 12 in one table, beside its goal, the published anchor and the ratio;
// written to bench/results.json. Benchmarks are not tests: nothing here asserts a time. Figures that miss
// their goal carry a CPU profile summary (top self-time functions) in the notes.
//   BENCH_SIZES          mesh sizes N (default 100,1000): translation, file change (each N); idle RSS (largest)
//   BENCH_XDS_CLIENTS    K loopback ADS clients (default 100,500,1000), each SotW and Delta
//   BENCH_PUSH_SERVICES  N of the push benches' mesh (default 100; 10 services per namespace)
//   BENCH_MODES          sotw,delta (default both)
//   BENCH_HOSTILE_CLIENTS / BENCH_HOSTILE_SERVICES (default 100 / 100): the hostile-load figures (issue 25)
//   BENCH_ONLY=hostile: only those rows
//   BENCH_ONLY=issue24: only issue 24's rows (bench/issue24.ts: its shapes, N = K = 1,000, each row the median of
//   BENCH_I24_RUNS runs, default 3; its knobs are listed there); BENCH_ISSUE24=0 skips them in the full run
//   BENCH_ONLY=ambient: only the ambient rows (issue 20): ztunnel's view, the pod-IP Address delta to Delta clients,
//   waypoint vs sidecar translation; BENCH_AMBIENT_PODS / BENCH_AMBIENT_SERVICES (default 10000 / 2000),
//   BENCH_AMBIENT_CLIENTS (100), BENCH_AMBIENT_ROUNDS (20); BENCH_AMBIENT=0 skips them in the full run
//   BENCH_CLI=0 / BENCH_SANDBOX=0 / BENCH_HOSTILE=0 / BENCH_DEMO=0 / BENCH_UI=0: skip those sections (the UI figures run in
//   Chromium when one is found: CHROMIUM_PATH or a system Chromium; else their rows say why not)
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../server/testing/paths';
import { benchCli } from './cli';
import { benchFileChange, fileChangeRows } from './fileChange';
import { formatSummary } from './profile';
import { benchIdle, benchPush, pushRows } from './push';
import { benchSandbox } from './sandbox';
import { type BenchRow, load1, machine, met, printTable } from './table';
import { benchTranslation } from './translation';
import { benchEnvoyFilters } from './envoyFilters';

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);
const sizes = list(process.env.BENCH_SIZES, '100,1000').map(Number);
const ks = list(process.env.BENCH_XDS_CLIENTS, '100,500,1000').map(Number);
const modes = list(process.env.BENCH_MODES, 'sotw,delta') as Array<'sotw' | 'delta'>;
const pushServices = Number(process.env.BENCH_PUSH_SERVICES ?? 100);
const largest = Math.max(...sizes);
const loadStart = loadavg();
const rows: BenchRow[] = [];
const step = (what: string) => console.error(`bench: ${what} (load ${load1()})`);

/** The old free-text rows (sandbox, demo, UI): the first number is the figure (`605 ms (…)`, `median 244 ms, …`). */
const textRow = (r: { bench: string; size: string; figure: string }, extra: Partial<BenchRow> = {}): BenchRow => ({
  figure: r.bench,
  size: r.size,
  value: Number.parseFloat(/\d+(?:\.\d+)?/.exec(r.figure)?.[0] ?? 'NaN'),
  unit: 'ms',
  detail: r.figure,
  load: load1(),
  ...extra,
});

/** Issue 20's ambient rows (bench/ztunnel.ts, bench/waypoint.ts). */
async function ambientRows(): Promise<BenchRow[]> {
  const { benchZtunnelView, benchZtunnelIncremental, benchZtunnelDelta } = await import('./ztunnel');
  const { benchWaypointVsSidecar } = await import('./waypoint');
  const pods = Number(process.env.BENCH_AMBIENT_PODS ?? 10_000);
  const services = Number(process.env.BENCH_AMBIENT_SERVICES ?? 2_000);
  const out: BenchRow[] = [];
  step(`ambient: ztunnel view, ${pods} pods / ${services} Services`);
  out.push(benchZtunnelView(pods, services));
  step(`ambient: ztunnel view rebuilt incrementally after a pod IP change`);
  out.push(benchZtunnelIncremental(pods, services));
  step('ambient: pod IP change → Address delta');
  out.push(
    await benchZtunnelDelta(
      pods,
      services,
      Number(process.env.BENCH_AMBIENT_CLIENTS ?? 100),
      Number(process.env.BENCH_AMBIENT_ROUNDS ?? 20),
    ),
  );
  step('ambient: waypoint vs sidecar translation');
  out.push(benchWaypointVsSidecar(pods, services));
  return out;
}

const only = process.env.BENCH_ONLY;
if (only === 'ambient') {
  const ambient = await ambientRows();
  console.log(printTable(ambient));
  console.log(
    `\nload average at start ${loadStart.map((l) => l.toFixed(2)).join(' ')}, at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.exit(0);
}
if (only === 'issue24') {
  const { benchIssue24 } = await import('./issue24Bench');
  const i24 = await benchIssue24();
  console.log(printTable(i24));
  const notes = i24.filter((r) => r.profile).map((r) => `- ${r.figure} (${r.size}): ${formatSummary(r.profile!)}`);
  if (notes.length > 0) console.log(`\nCPU profiles of figures that miss their goal:\n${notes.join('\n')}`);
  process.exit(0);
}
if (only === 'hostile') {
  const { benchHostile, hostileRows } = await import('./hostile');
  step('hostile load');
  const f = await benchHostile(Number(process.env.BENCH_HOSTILE_CLIENTS ?? 100), Number(process.env.BENCH_HOSTILE_SERVICES ?? 100));
  console.log(printTable(hostileRows(f)));
  console.log(
    `\nload average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.exit(0);
}
if (process.env.BENCH_CLI !== '0') {
  step('CLI');
  rows.push(...benchCli(Math.min(...sizes, 100), largest));
}
step('translation (in-process)');
rows.push(...(await benchTranslation(largest)));
if (process.env.BENCH_ENVOYFILTER !== '0') {
  step(`EnvoyFilter stage, N=${largest}`);
  rows.push(benchEnvoyFilters(largest));
}
for (const n of sizes) {
  step(`file change, N=${n}`);
  rows.push(...fileChangeRows(await benchFileChange(n)));
}
for (const k of ks)
  for (const mode of modes) {
    step(`push, ${mode}, K=${k}`);
    rows.push(...pushRows(await benchPush(mode, k, pushServices)));
  }
step(`idle server, N=${largest}`);
rows.push({
  figure: 'idle server RSS',
  size: `N=${largest}`,
  value: await benchIdle(largest),
  unit: 'MiB',
  ...(largest >= 1000 ? { goal: 300 } : {}),
  anchor: { value: 1500, text: 'istiod 1.5 GB (1,000 svc, 2,000 sidecars)' },
  detail: 'file source + store + ADS server process after load and GC, no client',
  load: load1(),
});
if (process.env.BENCH_SANDBOX !== '0') {
  step('sandbox');
  rows.push(...benchSandbox(Number(process.env.BENCH_SANDBOX_SERVICES ?? 1000), 5).map((r) => textRow(r)));
}
if (process.env.BENCH_DEMO !== '0') {
  step('demo');
  const { benchDemoShift } = await import('./demoShift');
  rows.push(
    ...(await benchDemoShift(Number(process.env.BENCH_DEMO_REPS ?? 20), Number(process.env.BENCH_DEMO_RATE ?? 50))).map((r) => textRow(r)),
  );
}
if (process.env.BENCH_HOSTILE !== '0') {
  step('hostile load');
  const { benchHostile, hostileRows } = await import('./hostile');
  rows.push(
    ...hostileRows(await benchHostile(Number(process.env.BENCH_HOSTILE_CLIENTS ?? 100), Number(process.env.BENCH_HOSTILE_SERVICES ?? 100))),
  );
}
if (process.env.BENCH_AMBIENT !== '0') rows.push(...(await ambientRows()));
if (process.env.BENCH_ISSUE24 !== '0') {
  // Issue 24's shapes (bench/issue24Bench.ts): ~8 minutes per run of the three shapes and both modes at N = K = 1,000.
  step('issue 24: multi-document files, List, kube; distinct-pod clients');
  const { benchIssue24 } = await import('./issue24Bench');
  rows.push(...(await benchIssue24()));
}
rows.push(...(await uiRows()));

/** The Chromium UI figures (bench/uiTti.ts, bench/uiGraph.ts), or rows saying why they were not measured. */
async function uiRows(): Promise<BenchRow[]> {
  const { benchChromium, noChromium } = await import('./uiTti');
  const why = process.env.BENCH_UI === '0' ? 'not measured in this run (BENCH_UI=0)' : benchChromium() ? undefined : noChromium();
  const missing = (figure: string, size: string, goal?: number): BenchRow => ({
    figure,
    size,
    value: Number.NaN,
    unit: 'ms',
    ...(goal === undefined ? {} : { goal }),
    detail: why,
  });
  if (why)
    return [
      missing('UI: 10,000-cluster proxy page interactive', '10,000 clusters', 1500),
      missing('UI: overview graph laid out', '1,000 nodes', 1000),
      missing('UI: overview graph laid out', '5,000 nodes'),
    ];
  const out: BenchRow[] = [];
  step('UI: proxy page');
  const { benchUiTti } = await import('./uiTti');
  for (const r of await benchUiTti()) {
    // The goal (and the table's row name) is for the 10,000-cluster proxy; smaller sizes are context.
    const tenK = r.bench === 'UI time-to-interactive' && Number.parseInt(r.size, 10) >= 10_000;
    const { profile, ...row } = r;
    out.push(
      textRow(row, {
        ...(tenK ? { figure: 'UI: 10,000-cluster proxy page interactive', goal: 1500 } : {}),
        ...(profile ? { profile } : {}),
      }),
    );
  }
  step('UI: overview graph');
  const { benchUiGraph } = await import('./uiGraph');
  for (const r of await benchUiGraph()) {
    const nodes = Number.parseInt(r.size, 10);
    // The goal is for 1,000 nodes (issue 12); larger meshes must stay usable (no goal).
    const goal = r.bench === 'UI: overview graph laid out' && nodes < 2000 ? { goal: 1000 } : {};
    out.push({
      figure: r.bench,
      size: r.size,
      value: r.value,
      unit: 'ms',
      detail: r.figure,
      load: load1(),
      ...goal,
      ...(r.profile ? { profile: r.profile } : {}),
    });
  }
  return out;
}

const notes = rows.filter((r) => r.profile && met(r) === false).map((r) => `${r.figure} (${r.size}): ${formatSummary(r.profile!)}`);
const text = printTable(rows);
console.log(text);
if (notes.length) console.log(`\nCPU profiles of the figures that miss their goal:\n${notes.map((n) => `- ${n}`).join('\n')}`);
const loadEnd = loadavg();
console.log(
  `\nload average at start ${loadStart.map((l) => l.toFixed(2)).join(' ')}, at end ${loadEnd.map((l) => l.toFixed(2)).join(' ')}`,
);
writeFileSync(
  join(REPO_ROOT, 'bench', 'results.json'),
  `${JSON.stringify(
    {
      when: new Date().toISOString(),
      machine: machine(),
      loadAverage: { start: loadStart, end: loadEnd },
      settings: { sizes, clients: ks, modes, pushServices },
      rows: rows.map((r) => ({ ...r, met: met(r), ratio: r.anchor ? r.value / r.anchor.value : undefined })),
      notes,
    },
    null,
    2,
  )}\n`,
);
console.error('bench: wrote bench/results.json');
// The bench server children and gRPC channels are closed; leave nothing running.
process.exit(0);
