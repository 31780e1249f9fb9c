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
  rows.push(
    translateRow(sidecarServices, 'svc-0-bench.ns-0', reps, startup, '`translate` one sidecar, minus start-up', {
      value: 0.33,
      text: 'istiod sidecar RDS 100 svc 0.33 ms',
    }),
    translateRow(
      gatewayServices,
      'istio-ingressgateway-0.istio-system',
      Math.min(reps, 3),
      startup,
      '`translate` the gateway, minus start-up',
      {
        value: 22.5,
        text: 'istiod 1,000-VS gateway RDS 22.5 ms',
      },
    ),
  );
  return rows;
}

/** `meshscope translate --proxy PROXY` over a generated mesh of N services, minus the CLI start-up. */
function translateRow(n: number, proxy: string, reps: number, startup: number, figure: string, anchor: BenchRow['anchor']): BenchRow {
  const mesh = writeMeshFiles(n);
  try {
    const t = timeCli(['translate', '--config', mesh.dir, '--proxy', proxy], reps);
    return {
      figure,
      size: `N=${n}`,
      value: t - startup,
      unit: 'ms',
      anchor,
      detail: `${t.toFixed(0)} ms wall − ${startup.toFixed(0)} ms start-up; includes reading and parsing ${mesh.files} files`,
      load: load1(),
    };
  } finally {
    rmSync(mesh.dir, { recursive: true, force: true });
  }
}
