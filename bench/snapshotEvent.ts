// Where the time between a file write and the store's snapshot event goes (issue 24, the VS-edit and pod-IP
// rows' "snapshot event"), in process, with the real watched file source and store wired to the xDS plane as
// bench/pushServer.ts wires them (no clients). Per edit: the write, the watcher's first and last event, the
// reload (debounce end → the store's replace), the store's flush, its listeners (the store event, then the
// plane's and the live event's work). Prints medians of `BENCH_EVENT_REPS` (default 7) edits per row.
//   BENCH_I24_N (default 1000), BENCH_I24_SHAPES (`multidoc,list`), BENCH_PROFILE_DIR (a CPU profile of each
//   measured edit, the write to the live event, saved there)   run: node --import tsx bench/snapshotEvent.ts
import { rmSync } from 'node:fs';
import { changeEvent } from '../server/impact/changes';
import { createXdsPlane } from '../server/impact/xdsPlane';
import { optionsOf } from '../server/model/mesh';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import { issueMesh, withPodIp, withVsWeight, writeIssueMesh } from './issueMesh';
import { formatSummary, startProfile } from './profile';
import { load1, median } from './table';

const N = Number(process.env.BENCH_I24_N ?? 1000);
const reps = Number(process.env.BENCH_EVENT_REPS ?? 7);
const shapes = (process.env.BENCH_I24_SHAPES ?? 'multidoc,list').split(',').map((s) => s.trim()) as Array<'multidoc' | 'list'>;
const mesh = issueMesh(N);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const shape of shapes) {
  const d = writeIssueMesh(mesh, shape);
  const store = new Store({ debounceMs: 100 });
  const src = new FileSource('file', [d.dir], { watch: true });
  // Marks: what the edit's path did when (performance.now()).
  let marks: Record<string, number> = {};
  const mark = (k: string) => {
    marks[k] ??= performance.now();
  };
  const anySrc = src as unknown as { scheduleReload: (f?: string) => void; reloadOnce: (...a: unknown[]) => Promise<void> };
  const schedule = anySrc.scheduleReload.bind(src);
  anySrc.scheduleReload = (f?: string) => {
    mark('watchFirst');
    marks.watchLast = performance.now();
    schedule(f);
  };
  const reloadOnce = anySrc.reloadOnce.bind(src);
  anySrc.reloadOnce = async (...a: unknown[]) => {
    mark('reload');
    await reloadOnce(...a);
  };
  const replace = store.replace.bind(store);
  store.replace = (...a: Parameters<Store['replace']>) => {
    mark('replace');
    replace(...a);
    mark('replaced');
  };
  const flush = store.flush.bind(store);
  store.flush = () => {
    mark('flush');
    flush();
  };
  await src.start(store);
  store.flush();
  store.onChange(() => mark('event'));
  const plane = createXdsPlane(store, undefined);
  let prev = store.snapshot();
  store.onChange((snap, change) => {
    mark('plane');
    changeEvent(prev, snap, change, optionsOf(snap));
    prev = snap;
    mark('live');
  });
  await sleep(500);
  for (const [what, kind, edit] of [
    ['VirtualService edit', 'VirtualService', (r: number) => withVsWeight(mesh, 60 - r)],
    ['Pod IP change', 'Pod', (r: number) => withPodIp(mesh, r + 1)],
  ] as const) {
    const rows: Record<string, number[]> = {};
    for (let r = 0; r < reps + 1; r++) {
      const write = d.prepare(kind, edit(r));
      marks = {};
      const prof = process.env.BENCH_PROFILE_DIR;
      const stop = prof && r > 0 ? await startProfile(`${prof}/${shape}-${kind}-${r}.cpuprofile`) : undefined;
      const t0 = performance.now();
      write();
      marks.written = performance.now();
      while (marks.live === undefined) await sleep(5);
      if (stop) console.log(`  ${kind} #${r}: ${formatSummary(await stop())}`);
      await sleep(300);
      if (r === 0) continue; // warm-up
      for (const [k, v] of Object.entries(marks)) (rows[k] ??= []).push(v - t0);
    }
    const order = ['written', 'watchFirst', 'watchLast', 'reload', 'replace', 'replaced', 'flush', 'event', 'plane', 'live'];
    console.log(
      `${what}, N=${N}, ${shape} (load ${load1()}): ${order
        .filter((k) => rows[k])
        .map((k) => `${k} ${median(rows[k]!).toFixed(1)}`)
        .join(' · ')} ms after the write starts`,
    );
  }
  await plane.close();
  await src.stop();
  store.close();
  rmSync(d.dir, { recursive: true, force: true });
}
