// Edit one VirtualService file → new snapshot, through the real file source and store (issue 12's file-source
// figure). issue 12's mesh (bench/meshFiles.ts), one file per object, a watched directory; each round
// rewrites one VS file and waits for the store's snapshot event. Prints medians; no asserts.
// Run: node --import tsx bench/fileChange.ts   (BENCH_SIZES=1000 by default)
import { rmSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import { vsWithWeight, writeMeshFiles } from './meshFiles';
import { startProfile, type ProfileSummary } from './profile';
import { load1, median, type BenchRow } from './table';

const DEBOUNCE_MS = 100; // the file source's and the store's defaults (runtime.ts)
// Debounce windows a file write meets before the snapshot: ONE. The file source debounces (100 ms quiet) and
// hands the store a settled batch, which the store publishes without its own debounce (sources/types.ts
// ReplaceOptions.settled), as istiod debounces config once (PILOT_DEBOUNCE_AFTER). It was 2 (file source, then
// the store) before issue 12.
const DEBOUNCE_WINDOWS = 1;
const GOAL_AFTER_DEBOUNCE_MS = 50;

export interface FileChangeFigures {
  services: number;
  files: number;
  initialLoadMs: number;
  changeToSnapshotMs: number;
  minusDebouncesMs: number;
  fileSourceReloadMs: number;
  filesParsedPerChange: number;
  snapshotBuildMs: number;
  profile?: ProfileSummary;
}

export async function benchFileChange(services: number, rounds = 7): Promise<FileChangeFigures> {
  const mesh = writeMeshFiles(services);
  const keepAlive = setInterval(() => undefined, 1000); // the watcher is not persistent (a server's sockets keep it alive)
  const store = new Store({ debounceMs: DEBOUNCE_MS });
  const src = new FileSource('file', [mesh.dir], { watch: true, debounceMs: DEBOUNCE_MS, rescanMs: 0 });
  let t0 = performance.now();
  await src.start(store);
  store.flush();
  const initialMs = performance.now() - t0;
  const total: number[] = [];
  const reload: number[] = [];
  const parsed: number[] = [];
  const round = async (r: number) => {
    const done = new Promise<number>((resolve) => {
      const off = store.onChange(() => {
        off();
        resolve(performance.now());
      });
    });
    t0 = performance.now();
    writeFileSync(mesh.vsFile, stringify(vsWithWeight(mesh.vsObject, 80 - (r % 50))));
    const end = await done;
    await new Promise((res) => setTimeout(res, 50));
    return end - t0;
  };
  for (let r = 0; r < rounds; r++) {
    total.push(await round(r));
    reload.push(src.lastReload?.ms ?? Number.NaN);
    parsed.push(src.lastReload?.parsed ?? Number.NaN);
  }
  let profile: ProfileSummary | undefined;
  if (median(total) - DEBOUNCE_WINDOWS * DEBOUNCE_MS > GOAL_AFTER_DEBOUNCE_MS) {
    const stop = await startProfile();
    await round(rounds);
    profile = await stop();
  }
  // Snapshot build cost alone (what flush spends): force a rebuild with no change of inputs.
  const b0 = performance.now();
  (store as unknown as { dirty: boolean }).dirty = true;
  store.snapshot();
  const buildMs = performance.now() - b0;
  await src.stop();
  store.close();
  clearInterval(keepAlive);
  rmSync(mesh.dir, { recursive: true, force: true });
  return {
    services,
    files: mesh.files,
    initialLoadMs: Math.round(initialMs),
    changeToSnapshotMs: Math.round(median(total)),
    minusDebouncesMs: Math.round(median(total) - DEBOUNCE_WINDOWS * DEBOUNCE_MS),
    fileSourceReloadMs: Math.round(median(reload)),
    filesParsedPerChange: median(parsed),
    snapshotBuildMs: Math.round(buildMs),
    ...(profile ? { profile } : {}),
  };
}

export function fileChangeRows(f: FileChangeFigures): BenchRow[] {
  const size = `N=${f.services} (${f.files} files)`;
  const load = load1();
  const detail = `file source reload ${f.fileSourceReloadMs} ms (${f.filesParsedPerChange} file parsed), snapshot rebuild with no input change (per-object results cached) ${f.snapshotBuildMs} ms, initial load ${f.initialLoadMs} ms`;
  return [
    {
      figure: 'edit one VS file → snapshot event',
      size,
      value: f.changeToSnapshotMs,
      unit: 'ms',
      anchor: { value: 100, text: 'istiod debounce floor 100 ms' },
      detail: `${detail}; includes the file source's ${DEBOUNCE_MS} ms debounce (the store adds none to a settled batch)`,
      load,
    },
    {
      figure: 'edit one VS file → snapshot, after the debounces',
      size,
      value: f.minusDebouncesMs,
      unit: 'ms',
      goal: GOAL_AFTER_DEBOUNCE_MS,
      load,
      ...(f.profile ? { profile: f.profile } : {}),
    },
  ];
}

if (process.argv[1]?.endsWith('fileChange.ts')) {
  for (const n of (process.env.BENCH_SIZES ?? '1000').split(',').map(Number)) console.log(JSON.stringify(await benchFileChange(n)));
}
