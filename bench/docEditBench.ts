// Issue 24 goal 5: a change to one document of a multi-document file or List costs what a change to a
// one-object file costs (within 2×). In-process, the real file source and store: VirtualService svc-0's
// weight edited (and svc-0's v1 Pod's IP moved) in (a) the 7 multi-document files, (b) the 7 `kind: List`
// files, (c) the same mesh one file per object; the reload of the changed file and the snapshot build timed
// (CPU of this process, median of `reps`, default 15: single edits of a few ms move by 2× with a collection; the
// layouts are loaded together and edited in turn, so the load's drift and the collections fall on all of them alike),
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

/** A layout's file source and store, loaded. */
interface Opened {
  l: Layout;
  store: Store;
  src: FileSource;
}

async function open(l: Layout): Promise<Opened> {
  const store = new Store({ debounceMs: 100 });
  const src = new FileSource('file', [l.dir], { watch: false });
  await src.start(store);
  store.flush();
  store.snapshot();
  return { l, store, src };
}

/** One layout's samples of one edit. */
interface Samples {
  cpu: number[];
  wall: number[];
  pieces: number;
  changed: number;
}

/** Writes one edit, then times its reload and the snapshot build (this process's CPU and the wall). */
async function editOnce(o: Opened, write: () => string, into: Samples): Promise<void> {
  const file = write();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let seen: string[] = [];
  const off = o.store.onChange((_s, ch) => {
    seen = ch.changed;
  });
  await o.src.reload(false, new Set([file]));
  o.store.flush();
  o.store.snapshot();
  off();
  into.wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  into.cpu.push((c.user + c.system) / 1000);
  into.pieces = o.src.lastReload?.pieces ?? Number.NaN;
  into.changed = seen.length;
}

/**
 * Every layout's rows, measured interleaved: all layouts are loaded at once, and each round edits each of them once
 * (the order rotating round by round), so a change of load or a collection during the run falls on every layout
 * alike instead of on whichever layout was being measured then (goal 5 is a ratio between layouts).
 */
async function measure(
  ls: readonly Layout[],
  mesh: IssueMesh,
  reps: number,
): Promise<{ rows: Map<Layout, BenchRow[]>; base: Map<string, number> }> {
  const opened: Opened[] = [];
  const rows = new Map<Layout, BenchRow[]>(ls.map((l) => [l, []]));
  /** Each edit's median CPU in the one-object layout (goal 5's denominator). */
  const base = new Map<string, number>();
  try {
    for (const l of ls) opened.push(await open(l));
    for (const [what, kind, edit] of EDITS(mesh)) {
      // The edits' bytes are made before any is timed (or profiled): YAML stringify of a whole file and its UTF-8
      // encoding are the bench's work, and so is their garbage (a string written by writeFileSync is encoded then).
      // Every layout gets the same sequence of edits.
      const prepared = (o: Opened, n: number, from: number) =>
        Array.from({ length: n }, (_, k) => o.l.prepare(kind, edit((from + k) % 50)));
      const samples = opened.map((): Samples => ({ cpu: [], wall: [], pieces: 0, changed: 0 }));
      const warm = opened.map((o) => prepared(o, 2, 0));
      const timed = opened.map((o) => prepared(o, reps, 2));
      // Two edits first, not counted: the first edits of a row run cold code (JIT), whichever the layout.
      for (let k = 0; k < 2; k++) for (let i = 0; i < opened.length; i++) await editOnce(opened[i]!, warm[i]![k]!, samples[i]!);
      for (const s of samples) {
        s.cpu.length = 0;
        s.wall.length = 0;
      }
      for (let r = 0; r < reps; r++)
        for (let j = 0; j < opened.length; j++) {
          const i = (j + r) % opened.length;
          await editOnce(opened[i]!, timed[i]![r]!, samples[i]!);
        }
      const oneAt = opened.findIndex((o) => o.l.name === ONE);
      const one = oneAt >= 0 ? median(samples[oneAt]!.cpu) : undefined;
      if (one !== undefined) base.set(what, one);
      for (let i = 0; i < opened.length; i++) {
        const { l } = opened[i]!;
        const s = samples[i]!;
        const value = median(s.cpu);
        const ratio = one && l.name !== ONE ? `; ${(value / one).toFixed(2)}× the one-object file (goal 5: ≤ 2×)` : '';
        const row: BenchRow = {
          figure: `${what} → snapshot (reload + build), CPU`,
          size: `N=${mesh.services}, ${l.name}`,
          value,
          unit: 'ms',
          detail: `wall ${median(s.wall).toFixed(1)} ms; documents/items parsed again: ${l.name === ONE ? '1 file' : s.pieces}; keys the store saw change: ${s.changed}${ratio}; edits interleaved with the other layouts'`,
          load: load1(),
        };
        if (process.env.BENCH_PROFILE === '1') {
          const writes = prepared(opened[i]!, reps, 2 + reps);
          const keep = process.env.BENCH_PROFILE_DIR;
          const name = `${mesh.services}-${l.name.replace(/[^a-z0-9]+/gi, '_')}-${kind}.cpuprofile`;
          const stop = await startProfile(keep ? join(keep, name) : undefined);
          const scratch: Samples = { cpu: [], wall: [], pieces: 0, changed: 0 };
          for (const w of writes) await editOnce(opened[i]!, w, scratch);
          const summary = await stop();
          row.detail += `; profile (${reps} edits): ${formatSummary(summary)}`;
        }
        rows.get(l)!.push(row);
      }
    }
  } finally {
    for (const o of opened) {
      await o.src.stop();
      o.store.close();
    }
  }
  return { rows, base };
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
    const makers: Array<[DocEditLayout, () => Layout]> = [
      ['files', () => oneFilePerObject(mesh)],
      ['multidoc', () => perKind(mesh, 'multidoc')],
      ['list', () => perKind(mesh, 'list')],
    ];
    const ratios: BenchRow[] = [];
    const ls: Layout[] = [];
    try {
      for (const [name, make] of makers) if (layouts.has(name)) ls.push(make());
      const { rows: got, base } = await measure(ls, mesh, reps);
      for (const l of ls) rows.push(...got.get(l)!);
      for (const l of ls) if (l.name !== ONE) ratios.push(...got.get(l)!.flatMap((r) => ratioRow(r, base, n, l.name)));
    } finally {
      for (const l of ls) rmSync(l.dir, { recursive: true, force: true });
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
