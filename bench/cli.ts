// CLI figures (issue 12): start-up (`meshscope proxies` on Bookinfo) and `meshscope translate` of one sidecar
// (N=100) and of the ingress gateway (N=1000), minus the start-up. The compiled CLI, as users run it.
// Each command loads only its own modules (dist/cli chunks), so "start-up" is measured per command: the same
// command stopped by a usage error right after its modules loaded (`proxies` without --config) — node's own
// boot, loading the CLI, and the command's work are reported apart in the detail.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bookinfo, REPO_ROOT } from '../server/testing/paths';
import { writeMeshFiles } from './meshFiles';
import { load1, median, type BenchRow } from './table';

const BIN = join(REPO_ROOT, 'bin', 'meshscope.mjs');

/** Median wall time of `node ARGS` (first run discarded), which must exit with `status`. */
function timeNode(args: string[], reps: number, status = 0): number {
  const times: number[] = [];
  for (let r = 0; r < reps + 1; r++) {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
    const t = performance.now() - t0;
    if (res.status !== status) throw new Error(`node ${args.join(' ')} exited ${res.status}: ${String(res.stderr).slice(0, 400)}`);
    if (r > 0) times.push(t); // the first run warms the page cache and the compiled bundle
  }
  return median(times);
}

const timeCli = (args: string[], reps: number): number => timeNode([BIN, ...args], reps);
/** The command's start-up: the run stops at the usage check (exit 2), after every module it needs loaded. */
const timeLoad = (args: string[], reps: number): number => timeNode([BIN, ...args], reps, 2);

export function benchCli(sidecarServices: number, gatewayServices: number, reps = 5): BenchRow[] {
  const rows: BenchRow[] = [];
  const startup = timeCli(['proxies', '--config', bookinfo('platform', 'bookinfo.yaml')], reps);
  const node = timeNode(['-e', '0'], reps);
  const load = timeLoad(['proxies'], reps);
  rows.push({
    figure: 'CLI start-up (`meshscope proxies`, Bookinfo)',
    size: 'Bookinfo',
    value: startup,
    unit: 'ms',
    goal: 300,
    anchor: { value: 300, text: 'istioctl-like 300 ms' },
    detail:
      `median of ${reps} runs of the compiled CLI (first run discarded): node itself ${node.toFixed(0)} ms, ` +
      `loading the CLI ${(load - node).toFixed(0)} ms, the command (read, parse, print) ${(startup - load).toFixed(0)} ms`,
    load: load1(),
  });
  rows.push(
    translateRow(sidecarServices, 'svc-0-bench.ns-0', reps, '`translate` one sidecar, minus start-up', {
      value: 0.33,
      text: 'istiod sidecar RDS 100 svc 0.33 ms',
    }),
    translateRow(gatewayServices, 'istio-ingressgateway-0.istio-system', Math.min(reps, 3), '`translate` the gateway, minus start-up', {
      value: 22.5,
      text: 'istiod 1,000-VS gateway RDS 22.5 ms',
    }),
  );
  return rows;
}

/** `meshscope translate --proxy PROXY` over a generated mesh of N services, minus the start-up of `translate`. */
function translateRow(n: number, proxy: string, reps: number, figure: string, anchor: BenchRow['anchor']): BenchRow {
  const mesh = writeMeshFiles(n);
  try {
    const startup = timeLoad(['translate', '--proxy', proxy], reps);
    const t = timeCli(['translate', '--config', mesh.dir, '--proxy', proxy], reps);
    return {
      figure,
      size: `N=${n}`,
      value: t - startup,
      unit: 'ms',
      anchor,
      detail:
        `${t.toFixed(0)} ms wall − ${startup.toFixed(0)} ms start-up of \`translate\` (node + its modules); ` +
        `includes reading and parsing ${mesh.files} files`,
      load: load1(),
    };
  } finally {
    rmSync(mesh.dir, { recursive: true, force: true });
  }
}
