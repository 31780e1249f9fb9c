// Demo data plane: how long a weight change takes to move 95% of real calls (apply → store → snapshot →
// ADS push → the @grpc/grpc-js-xds clients' RDS ACK → calls). On a copy of the demo mesh (loopback base
// 127.0.215.x), changed through the sandbox's demo applier; observed in 50 ms buckets, 250 ms window.
import { rmSync } from 'node:fs';
import { DemoApplier } from '../server/api/apply/demo';
import { parseDraft } from '../server/sandbox/draft';
import { copyDemoMesh } from '../server/demo/testing/demoCopy';
import { createRuntimeForTest } from '../server/runtime';

const HOST = 'products.catalog.svc.cluster.local';
const vs = (w1: number) => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: products, namespace: catalog}
spec:
  hosts: [${HOST}]
  http:
  - name: shift
    route:
    - {destination: {host: ${HOST}, subset: v1}, weight: ${w1}}
    - {destination: {host: ${HOST}, subset: v2}, weight: ${100 - w1}}
`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

export async function benchDemoShift(reps: number, rate: number): Promise<{ bench: string; size: string; figure: string }[]> {
  const dir = copyDemoMesh(215);
  const rt = createRuntimeForTest(
    { config: [dir], xdsPort: 0, demoTraffic: true },
    { log: () => undefined, demo: { rate, testerPercent: 0, tickMs: 20, window: { bucketMs: 50, buckets: 200 } } },
  );
  try {
    await rt.ready;
    const dp = rt.demoTraffic()!;
    const applier = new DemoApplier(rt.store);
    const share = (subset: string) => {
      const p = dp.report(0.25).services.find((s) => s.host === HOST);
      const d = p?.destinations.find((x) => x.subset === subset);
      const n = (p?.destinations ?? []).reduce((a, x) => a + x.requests, 0);
      return n >= 5 ? (d?.observedPercent ?? 0) : -1;
    };
    for (let i = 0; share('v1') < 0; i++) {
      if (i > 300) throw new Error('no demo traffic after 15 s');
      await sleep(50);
    }
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const to = r % 2 === 0 ? 'v2' : 'v1';
      await applier.apply(parseDraft(vs(to === 'v2' ? 0 : 100)).edits);
      const t0 = performance.now();
      while (share(to) < 95) {
        if (performance.now() - t0 > 15_000) throw new Error(`no shift to ${to} within 15 s`);
        await sleep(10);
      }
      times.push(performance.now() - t0);
      await sleep(600);
    }
    return [
      {
        bench: 'demo: weight → 95% shifted',
        size: `${rt.demoTraffic()!.report(1).clients} clients × ${rate}/s`,
        figure: `median ${pct(times, 50).toFixed(0)} ms, p99 ${pct(times, 99).toFixed(0)} ms (${reps} changes; 250 ms window)`,
      },
    ];
  } finally {
    await rt.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
