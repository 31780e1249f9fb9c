// Issue 24 goal 5: a change to one document of a multi-document file or List costs what a change to a
// one-object file costs (within 2×). In-process, the real file source and store: VirtualService svc-0's
// weight edited (and svc-0's v1 Pod's IP moved) in (a) the 7 multi-document files, (b) the 7 `kind: List`
// files, (c) the same mesh one file per object; the reload of the changed file and the snapshot build timed
// (CPU of this process, median of `reps`, default 15: single edits of a few ms move by 2× with a collection),
// with what was parsed again and what the store saw change; then goal 5's own rows: each edit's ratio to the
// same edit in the one-object-per-file layout, beside the 2× goal. `npm run bench` prints these rows in issue
// 24's section (bench/issue24Bench.ts); `bench/docEdit.ts` runs them alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import type { RawObject } from '../server/sources/types';
import { type IssueMesh, issueMesh, KINDS, type MeshKind, withPodIp, withVsWeight, writeIssueMesh } from './issueMesh';
import { formatSummary, startProfile } from './profile';
import { type BenchRow, load1, median } from './table';

interface Layout {
  name: string;
  dir: string;
  /** Makes the edited kind's text now; the returned call writes it and returns the file that changed. */
  prepare(kind: MeshKind, objects: readonly RawObject[]): () => string;
}

function oneFilePerObject(mesh: IssueMesh): Layout {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-i24-files-'));
  const fileOf = (kind: MeshKind, i: number) => join(dir, `${kind}-${String(i).padStart(5, '0')}.yaml`);
  for (const k of KINDS) mesh.byKind[k].forEach((o, i) => writeFileSync(fileOf(k, i), stringify(o)));
  return {
    name: 'one object per file',
    dir,
    prepare: (kind, objects) => {
      const bytes = Buffer.from(stringify(objects[0]));
      return () => {
        writeFileSync(fileOf(kind, 0), bytes);
        return fileOf(kind, 0);
      };
    },
  };
}

function perKind(mesh: IssueMesh, shape: 'multidoc' | 'list'): Layout {
  const d = writeIssueMesh(mesh, shape);
  return {
    name: shape === 'list' ? '7 kind: List files' : '7 multi-document files',
    dir: d.dir,
    prepare: (kind, objects) => {
      const write = d.prepare(kind, objects);
      return () => {
        write();
        return d.fileOf(kind);
      };
    },
  };
}

const EDITS = (mesh: IssueMesh) =>
  [
    ['VirtualService edit', 'VirtualService', (r: number) => withVsWeight(mesh, 60 - r)],
    ['Pod IP change', 'Pod', (r: number) => withPodIp(mesh, r + 1)],
  ] as const;

async function measure(l: Layout, mesh: IssueMesh, reps: number, base: Map<string, number>): Promise<BenchRow[]> {
  const store = new Store({ debounceMs: 100 });
  const src = new FileSource('file', [l.dir], { watch: false });
  await src.start(store);
  store.flush();
  store.snapshot();
  const rows: BenchRow[] = [];
  let gen = 0;
  for (const [what, kind, edit] of EDITS(mesh)) {
    const cpu: number[] = [];
    const wall: number[] = [];
    let pieces = 0;
    let changed = 0;
    // The edits' bytes are made before they are timed (or profiled): YAML stringify of a whole file and its UTF-8
    // encoding are the bench's work, and so is their garbage (a string written by writeFileSync is encoded then).
    const prepared = (n: number) => Array.from({ length: n }, () => l.prepare(kind, edit(gen++ % 50)));
    const once = async (write: () => string) => {
      const file = write();
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
    };
    // Two edits first, not counted: the first edits of a row run cold code (JIT), whichever the layout.
    for (const w of prepared(2)) await once(w);
    cpu.length = 0;
    wall.length = 0;
    for (const w of prepared(reps)) await once(w);
    const value = median(cpu);
    const one = base.get(what);
    if (l.name === ONE) base.set(what, value);
    const row: BenchRow = {
      figure: `${what} → snapshot (reload + build), CPU`,
      size: `N=${mesh.services}, ${l.name}`,
      value,
      unit: 'ms',
      detail: `wall ${median(wall).toFixed(1)} ms; documents/items parsed again: ${l.name === ONE ? '1 file' : pieces}; keys the store saw change: ${changed}${one ? `; ${(value / one).toFixed(2)}× the one-object file (goal 5: ≤ 2×)` : ''}`,
      load: load1(),
    };
    if (process.env.BENCH_PROFILE === '1') {
      const writes = prepared(reps);
      const keep = process.env.BENCH_PROFILE_DIR;
      const name = `${mesh.services}-${l.name.replace(/[^a-z0-9]+/gi, '_')}-${kind}.cpuprofile`;
      const stop = await startProfile(keep ? join(keep, name) : undefined);
      for (const w of writes) await once(w);
      const summary = await stop();
      row.detail += `; profile (${reps} edits): ${formatSummary(summary)}`;
    }
    rows.push(row);
  }
  await src.stop();
  store.close();
  return rows;
}

const ONE = 'one object per file';
export type DocEditLayout = 'files' | 'multidoc' | 'list';

/** The rows at each size: each layout's edit rows, then goal 5's ratio rows (a per-kind layout's edit ÷ the one-object file's). */
export async function benchDocEdit(
  sizes: readonly number[],
  layouts: ReadonlySet<string> = new Set<DocEditLayout>(['files', 'multidoc', 'list']),
  reps = 15,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const mesh = issueMesh(n);
    const base = new Map<string, number>();
    const makers: Array<[DocEditLayout, () => Layout]> = [
      ['files', () => oneFilePerObject(mesh)],
      ['multidoc', () => perKind(mesh, 'multidoc')],
      ['list', () => perKind(mesh, 'list')],
    ];
    const ratios: BenchRow[] = [];
    for (const [name, make] of makers) {
      if (!layouts.has(name)) continue;
      const l = make();
      try {
        const got = await measure(l, mesh, reps, base);
        rows.push(...got);
        if (l.name !== ONE) ratios.push(...got.flatMap((r) => ratioRow(r, base, n, l.name)));
      } finally {
        rmSync(l.dir, { recursive: true, force: true });
      }
    }
    rows.push(...ratios);
  }
  return rows;
}

/** Goal 5's row for one edit row of a per-kind layout: its CPU ÷ the one-object file's (none when that was not measured). */
function ratioRow(r: BenchRow, base: ReadonlyMap<string, number>, n: number, layout: string): BenchRow[] {
  const what = r.figure.slice(0, r.figure.indexOf(' → '));
  const one = base.get(what);
  if (one === undefined || !(one > 0)) return [];
  return [
    {
      figure: `${what} in one document ÷ the same edit as a one-object file (CPU)`,
      size: `N=${n}, ${layout}`,
      value: r.value / one,
      unit: '×',
      goal: 2,
      detail: `${r.value.toFixed(1)} ms ÷ ${one.toFixed(1)} ms (reload + snapshot build, median of the reps)`,
      load: r.load,
    },
  ];
}
