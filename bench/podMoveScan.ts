// The pod IP change's work before the snapshot event (issue 24 goal 3's EDS row), in process and without the
// watcher's debounce: the issue-24 mesh written as files, the real FileSet and Store; per round one pod's IP in the
// Pod file changes (two prepared texts written in turn), then the file set's rescan of that file (read, the bytes
// compared with the last load's, the changed document parsed, the output patched), the store's replace and its
// build (incremental: patchPods). Prints the medians of R rounds. Timed, never asserted.
//   N (default 5000), R (default 40), SHAPE (multidoc | list)   run: node --import tsx bench/podMoveScan.ts
import { rmSync } from 'node:fs';
import { FileSet } from '../server/sources/file/fileSet';
import { Store } from '../server/sources/store';
import { issueMesh, withPodIp, writeIssueMesh } from './issueMesh';
import { load1 } from './table';
const N = Number(process.env.N ?? 5000);
const R = Number(process.env.R ?? 40);
const mesh = issueMesh(N);
const d = writeIssueMesh(mesh, (process.env.SHAPE ?? 'multidoc') as 'multidoc');
const files = new FileSet([d.dir]);
const store = new Store({ debounceMs: 1 });
store.replace('file', (await files.scan()).inputs);
store.flush();
store.snapshot();
const file = d.fileOf('Pod');
const ts: number[][] = [];
const writes = [1, 2].map((g) => d.prepare('Pod', withPodIp(mesh, g)));
for (let r = 0; r < R; r++) {
  writes[r % 2]!();
  const t0 = performance.now();
  const s = await files.scan(false, new Set([file]), true);
  const t1 = performance.now();
  store.replace('file', s.inputs, s.errors, { settled: true });
  const t2 = performance.now();
  store.flush();
  store.snapshot();
  const t3 = performance.now();
  ts.push([t1 - t0, t2 - t1, t3 - t2]);
}
const med = (k: number) =>
  ts
    .map((t) => t[k]!)
    .sort((a, b) => a - b)
    [Math.floor(R / 2)]!.toFixed(2);
console.log(`N=${N}: scan ${med(0)} · store.replace ${med(1)} · flush+build ${med(2)} ms (medians of ${R}, load ${load1()})`);
rmSync(d.dir, { recursive: true, force: true });
