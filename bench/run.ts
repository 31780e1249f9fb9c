// `npm run bench`: prints measured figures. Benchmarks are not tests: nothing here asserts a time.
import { encodeResource } from '../server/envoy/encode';
import { TYPE } from '../server/envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { translateProxy } from '../server/translate/index';
import { generateMesh } from './generateMesh';
import { benchSandbox } from './sandbox';
import { benchXdsFanout } from './xdsFanout';

interface Row {
  bench: string;
  size: string;
  figure: string;
}
const rows: Row[] = [];
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function benchTranslate(services: number, reps: number) {
  const inputs = generateMesh({ services });
  let t0 = process.hrtime.bigint();
  const snap = buildSnapshot(inputs, { version: 1 });
  rows.push({ bench: 'snapshot build', size: `${services} services`, figure: `${ms(t0).toFixed(0)} ms` });
  const proxy = snap.proxies[0];
  if (!proxy) throw new Error('no proxy in synthetic mesh');
  const times: number[] = [];
  const encTimes: number[] = [];
  let counts = '';
  for (let r = 0; r < reps; r++) {
    t0 = process.hrtime.bigint();
    const t = translateProxy(snap, proxy, DEFAULT_OPTIONS);
    times.push(ms(t0));
    t0 = process.hrtime.bigint();
    for (const c of t.clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
    for (const l of t.listeners) encodeResource(TYPE.listener, l.name ?? '', l);
    for (const rc of t.routes) encodeResource(TYPE.route, rc.name ?? '', rc);
    for (const e of t.endpoints) encodeResource(TYPE.endpoint, e.clusterName ?? '', e);
    encTimes.push(ms(t0));
    counts = `${t.listeners.length} LDS / ${t.routes.length} RDS / ${t.clusters.length} CDS / ${t.endpoints.length} EDS`;
  }
  rows.push({
    bench: 'translate one sidecar',
    size: `${services} services + ${services} VS`,
    figure: `${median(times).toFixed(1)} ms (median of ${reps}; ${counts})`,
  });
  rows.push({
    bench: 'encode its resources',
    size: `${services} services`,
    figure: `${median(encTimes).toFixed(1)} ms (median of ${reps})`,
  });
}

const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
for (const n of sizes) benchTranslate(n, n >= 5000 ? 3 : 5);

// Sandbox: evaluate a one-VirtualService draft (bench/sandbox.ts); BENCH_SANDBOX_SERVICES overrides the size.
rows.push(...benchSandbox(Number(process.env.BENCH_SANDBOX_SERVICES ?? 1000), 5));

// ADS push fan-out (bench/xdsFanout.ts): K loopback SotW clients; BENCH_XDS_CLIENTS overrides K.
for (const k of (process.env.BENCH_XDS_CLIENTS ?? '100,1000').split(',').map(Number)) rows.push(...(await benchXdsFanout(k)));

// UI time-to-interactive for a proxy with ~1k / 10k clusters, in Chromium (bench/uiTti.ts): BENCH_UI=1.
if (process.env.BENCH_UI === '1') rows.push(...(await (await import('./uiTti')).benchUiTti()));

const w = [24, 28, 0];
console.log(['bench'.padEnd(w[0]!), 'size'.padEnd(w[1]!), 'figure'].join(' | '));
console.log('-'.repeat(100));
for (const r of rows) console.log([r.bench.padEnd(w[0]!), r.size.padEnd(w[1]!), r.figure].join(' | '));
