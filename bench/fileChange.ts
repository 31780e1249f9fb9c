// Edit one VirtualService file → new snapshot, through the real file source and store (issue 12's file-source
// figure). N services, one file per object (Service, 2 Deployments, DestinationRule, VirtualService), a watched
// directory; each round rewrites one VS file and waits for the store's snapshot event. Prints medians; no asserts.
// Run: node --import tsx bench/fileChange.ts   (BENCH_SIZES=1000 by default)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import { generateMesh } from './generateMesh';

const DEBOUNCE_MS = 100; // the file source's and the store's defaults (runtime.ts)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function benchFileChange(services: number, rounds = 7) {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-bench-fc-'));
  const inputs = generateMesh({ services });
  inputs.forEach((i, n) => {
    const md = i.object.metadata as { name: string; namespace?: string };
    writeFileSync(join(dir, `${String(n).padStart(6, '0')}-${String(i.object.kind)}-${md.name}.yaml`), stringify(i.object));
  });
  const keepAlive = setInterval(() => undefined, 1000); // the watcher is not persistent (a server's sockets keep it alive)
  const store = new Store({ debounceMs: DEBOUNCE_MS });
  const src = new FileSource('file', [dir], { watch: true, debounceMs: DEBOUNCE_MS, rescanMs: 0 });
  let t0 = performance.now();
  await src.start(store);
  store.flush();
  const initialMs = performance.now() - t0;
  const vsFiles = inputs.map((i, n) => ({ i, n })).filter(({ i }) => i.object.kind === 'VirtualService');
  const total: number[] = [];
  const reload: number[] = [];
  const parsed: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const { i, n } = vsFiles[(r * 37) % vsFiles.length]!;
    const md = i.object.metadata as { name: string };
    const o = structuredClone(i.object) as { spec: { http: { route: { weight: number }[] }[] } };
    o.spec.http[0]!.route[0]!.weight = 80 - r;
    o.spec.http[0]!.route[1]!.weight = 20 + r;
    const done = new Promise<number>((resolve) => {
      const off = store.onChange(() => {
        off();
        resolve(performance.now());
      });
    });
    t0 = performance.now();
    writeFileSync(join(dir, `${String(n).padStart(6, '0')}-VirtualService-${md.name}.yaml`), stringify(o));
    const end = await done;
    total.push(end - t0);
    reload.push(src.lastReload?.ms ?? Number.NaN);
    parsed.push(src.lastReload?.parsed ?? Number.NaN);
    await new Promise((res) => setTimeout(res, 50));
  }
  // Snapshot build cost alone (what flush spends): force a rebuild with no change of inputs.
  const b0 = performance.now();
  (store as unknown as { dirty: boolean }).dirty = true;
  store.snapshot();
  const buildMs = performance.now() - b0;
  await src.stop();
  store.close();
  clearInterval(keepAlive);
  rmSync(dir, { recursive: true, force: true });
  return {
    services,
    files: inputs.length,
    initialLoadMs: Math.round(initialMs),
    changeToSnapshotMs: Math.round(median(total)),
    minusDebouncesMs: Math.round(median(total) - 2 * DEBOUNCE_MS),
    fileSourceReloadMs: Math.round(median(reload)),
    filesParsedPerChange: median(parsed),
    snapshotBuildMs: Math.round(buildMs),
  };
}

if (process.argv[1]?.endsWith('fileChange.ts')) {
  for (const n of (process.env.BENCH_SIZES ?? '1000').split(',').map(Number)) console.log(JSON.stringify(await benchFileChange(n)));
}
