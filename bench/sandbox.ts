// Sandbox evaluation (issue #9 "Speed"): a one-VirtualService draft (svc-5 90/10 → 50/50) evaluated over the
// generated N-service mesh, findings and all; median wall time, printed beside how many proxies the
// change-impact logic named and how many were translated. Not a test: nothing here asserts a time.
import { buildSnapshot } from '../server/model/snapshot';
import { createCache } from '../server/pipeline/cache';
import { evaluate } from '../server/sandbox/evaluate';
import type { BaseParts } from '../server/sandbox/translateParts';
import { generateMesh } from './generateMesh';

const draft = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: svc-5, namespace: ns-5}
spec:
  hosts: [svc-5]
  http:
  - route:
    - {destination: {host: svc-5, subset: v1}, weight: 50}
    - {destination: {host: svc-5, subset: v2}, weight: 50}
`;

export function benchSandbox(services: number, reps: number): { bench: string; size: string; figure: string }[] {
  const inputs = generateMesh({ services });
  const snapshot = buildSnapshot(inputs, { version: 1 });
  // As the server keeps it: live-side translations reused while the live snapshot stays the same (the
  // first evaluation pays for them).
  const parts: BaseParts = createCache(4096);
  const times: number[] = [];
  let stats = '';
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    const { result } = evaluate({ snapshot, inputs, parts }, draft);
    times.push(performance.now() - t0);
    stats = `${result.stats.translated} of ${result.stats.proxies} proxies translated (${result.stats.candidates} candidates, ${result.blastRadius.length} change)`;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const first = times[0] ?? Number.NaN;
  return [
    {
      bench: 'sandbox: one-VS draft',
      size: `${services} services`,
      figure: `${median.toFixed(0)} ms (median of ${reps}, first ${first.toFixed(0)} ms; ${stats})`,
    },
  ];
}
