// CLI figures (issue 12): start-up (`meshscope proxies` on Bookinfo) and `meshscope translate` of one sidecar
// (N=100) and of the ingress gateway (N=1000), minus the start-up. The compiled CLI, as users run it.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bookinfo, REPO_ROOT } from '../server/testing/paths';
import { writeMeshFiles } from './meshFiles';
import { load1, median, type BenchRow } from './table';

const BIN = join(REPO_ROOT, 'bin', 'meshscope.mjs');

function timeCli(args: string[], reps: number): number {
  const times: number[] = [];
  for (let r = 0; r < reps + 1; r++) {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
    const t = performance.now() - t0;
    if (res.status !== 0) throw new Error(`meshscope ${args.join(' ')} exited ${res.status}: ${String(res.stderr).slice(0, 400)}`);
    if (r > 0) times.push(t); // the first run warms the page cache and the compiled bundle
  }
  return median(times);
}

export function benchCli(sidecarServices: number, gatewayServices: number, reps = 5): BenchRow[] {
  const rows: BenchRow[] = [];
  const startup = timeCli(['proxies', '--config', bookinfo('platform', 'bookinfo.yaml')], reps);
  rows.push({
    figure: 'CLI start-up (`meshscope proxies`, Bookinfo)',
    size: 'Bookinfo',
    value: startup,
    unit: 'ms',
    goal: 300,
    anchor: { value: 300, text: 'istioctl-like 300 ms' },
    detail: `median of ${reps} runs of the compiled CLI (first run discarded)`,
    load: load1(),
  });
  const side = writeMeshFiles(sidecarServices);
  try {
    const t = timeCli(['translate', '--config', side.dir, '--proxy', 'svc-0-bench.ns-0'], reps);
    rows.push({
      figure: '`translate` one sidecar, minus start-up',
      size: `N=${sidecarServices}`,
      value: t - startup,
      unit: 'ms',
      anchor: { value: 0.33, text: 'istiod sidecar RDS 100 svc 0.33 ms' },
      detail: `${t.toFixed(0)} ms wall − ${startup.toFixed(0)} ms start-up; includes reading and parsing ${side.files} files`,
      load: load1(),
    });
  } finally {
    rmSync(side.dir, { recursive: true, force: true });
  }
  const gw = writeMeshFiles(gatewayServices);
  try {
    const t = timeCli(['translate', '--config', gw.dir, '--proxy', 'istio-ingressgateway-0.istio-system'], Math.min(reps, 3));
    rows.push({
      figure: '`translate` the gateway, minus start-up',
      size: `N=${gatewayServices}`,
      value: t - startup,
      unit: 'ms',
      anchor: { value: 22.5, text: 'istiod 1,000-VS gateway RDS 22.5 ms' },
      detail: `${t.toFixed(0)} ms wall − ${startup.toFixed(0)} ms start-up; includes reading and parsing ${gw.files} files`,
      load: load1(),
    });
  } finally {
    rmSync(gw.dir, { recursive: true, force: true });
  }
  return rows;
}
