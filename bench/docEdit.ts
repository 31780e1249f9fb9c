// issue 24 goal 5: a change to one document of a multi-document file or List costs what a change to a
// one-object file costs (within 2×). In-process, the real file source and store: VirtualService svc-0's
// weight edited (and svc-0's v1 Pod's IP moved) in (a) the 7 multi-document files, (b) the 7 `kind: List`
// files, (c) the same mesh one file per object; the reload of the changed file and the snapshot build
// timed (CPU of this process, median of `reps`), with what was parsed again and what the store saw change.
//   BENCH_I24_N (default 1000)   run: node --import tsx bench/docEdit.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import type { RawObject } from '../server/sources/types';
import { type IssueMesh, issueMesh, KINDS, type MeshKind, withPodIp, withVsWeight, writeIssueMesh } from './issueMesh';
import { type BenchRow, load1, median, printTable } from './table';

interface Layout {
  name: string;
  dir: string;
  /** Writes the edited kind's objects; returns the file that changed. */
  write(kind: MeshKind, objects: readonly RawObject[]): string;
}

function oneFilePerObject(mesh: IssueMesh): Layout {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-i24-files-'));
  const fileOf = (kind: MeshKind, i: number) => join(dir, `${kind}-${String(i).padStart(5, '0')}.yaml`);
  for (const k of KINDS) mesh.byKind[k].forEach((o, i) => writeFileSync(fileOf(k, i), stringify(o)));
  return {
    name: 'one object per file',
    dir,
    write: (kind, objects) => {
      writeFileSync(fileOf(kind, 0), stringify(objects[0]));
      return fileOf(kind, 0);
    },
  };
}

function perKind(mesh: IssueMesh, shape: 'multidoc' | 'list'): Layout {
  const d = writeIssueMesh(mesh, shape);
  return {
    name: shape === 'list' ? '7 kind: List files' : '7 multi-document files',
    dir: d.dir,
    write: (kind, objects) => {
      d.write(kind, objects);
      return d.fileOf(kind);
    },
  };
}

async function measure(l: Layout, mesh: IssueMesh, reps: number): Promise<BenchRow[]> {
  const store = new Store({ debounceMs: 100 });
  const src = new FileSource('file', [l.dir], { watch: false });
  await src.start(store);
  store.flush();
  store.snapshot();
  const rows: BenchRow[] = [];
  for (const [what, kind, edit] of [
    ['VirtualService edit', 'VirtualService', (r: number) => withVsWeight(mesh, 60 - r)],
    ['Pod IP change', 'Pod', (r: number) => withPodIp(mesh, r + 1)],
  ] as const) {
    const cpu: number[] = [];
    const wall: number[] = [];
    let pieces = 0;
    let changed = 0;
    for (let r = 0; r < reps; r++) {
      const file = l.write(kind, edit(r));
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let seen: string[] = [];
      const off = store.onChange((_s, ch) => {
        seen = ch.changed;
      });
      await src.reload(false, new Set([file]));
      store.flush();
      store.snapshot();
      off();
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      pieces = src.lastReload?.pieces ?? Number.NaN;
      changed = seen.length;
    }
    rows.push({
      figure: `${what} → snapshot (reload + build), CPU`,
      size: `N=${mesh.services}, ${l.name}`,
      value: median(cpu),
      unit: 'ms',
      detail: `wall ${median(wall).toFixed(1)} ms; documents/items parsed again: ${l.name === 'one object per file' ? '1 file' : pieces}; keys the store saw change: ${changed}`,
      load: load1(),
    });
  }
  await src.stop();
  store.close();
  return rows;
}

const N = Number(process.env.BENCH_I24_N ?? 1000);
const mesh = issueMesh(N);
const rows: BenchRow[] = [];
for (const make of [() => oneFilePerObject(mesh), () => perKind(mesh, 'multidoc'), () => perKind(mesh, 'list')]) {
  const l = make();
  try {
    rows.push(...(await measure(l, mesh, 7)));
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
}
console.log(printTable(rows));
