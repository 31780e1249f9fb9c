// Big files are read into buffers the FileSet reuses (./readBuffers: the last narrowed load's buffer becomes the
// spare the next edit is read into). Invisible: over random edits of a few multi-document files — one document's
// value changed, the same bytes written again, documents added past the buffers' room to grow, documents removed,
// a syntax error and the recovery from it, a file deleted and written again — a FileSet that reads every file
// through reused buffers gives the same objects (and origins), errors and parse counts as one that never reuses
// a buffer, after every scan of the changed file and every full scan. A buffer written while a kept load still
// refers to it (a wrong give-back) breaks the next edit's narrowing (its bytes are compared with the last load's)
// and fails this.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSet } from './fileSet';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FILES = 3;
const doc = (f: number, d: number, ip: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p${f}-${d}\n  namespace: default\n  labels:\n    app: a${d % 5}\nstatus:\n  podIP: ${ip}\n`;
/** File `f`'s text in variant `v`: 3 to 9 documents, or ~900 (past a small file's buffers' room to grow), now and then broken. */
function text(f: number, v: number): string {
  const docs = v % 13 === 4 ? 900 : 3 + (v % 7);
  const parts = Array.from({ length: docs }, (_, d) => doc(f, d, d === v % docs ? `10.0.${v}.${d}` : `10.1.0.${d}`));
  if (v % 9 === 7) parts[docs - 1] = 'kind: [unclosed\n';
  return parts.join('---\n');
}

const shape = (r: { inputs: readonly { object: unknown; origin: unknown }[]; errors: readonly unknown[]; parsed: number }) => ({
  inputs: r.inputs.map((i) => ({ object: i.object, origin: i.origin })),
  errors: r.errors,
  parsed: r.parsed,
});

type Step = { kind: 'write'; f: number; v: number } | { kind: 'same'; f: number } | { kind: 'delete'; f: number } | { kind: 'full' };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), f: fc.nat(FILES - 1), v: fc.nat(60) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('same' as const), f: fc.nat(FILES - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), f: fc.nat(FILES - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('full' as const) }) },
);

describe('FileSet reading into reused buffers', () => {
  it('gives what reading every file anew gives, over random edits, errors, deletions and growth', async () => {
    let tick = 1_700_000_000;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const dir = mkdtempSync(join(tmpdir(), 'meshscope-readbuf-'));
        dirs.push(dir);
        const file = (f: number) => join(dir, `f${f}.yaml`);
        const current = new Map<number, string>();
        const write = (f: number, t: string) => {
          writeFileSync(file(f), t);
          utimesSync(file(f), ++tick, tick); // a new stat on every write, however fast
          current.set(f, t);
        };
        for (let f = 0; f < FILES; f++) write(f, text(f, f));
        const now = () => new Date(0);
        const reused = new FileSet([dir], { now, reuseReadBytes: 1 });
        const fresh = new FileSet([dir], { now, reuseReadBytes: Number.POSITIVE_INFINITY });
        expect(shape(await reused.scan())).toEqual(shape(await fresh.scan()));
        for (const s of steps) {
          let only: Set<string> | undefined;
          if (s.kind === 'write') {
            write(s.f, text(s.f, s.v));
            only = new Set([file(s.f)]);
          } else if (s.kind === 'same') {
            write(s.f, current.get(s.f) ?? text(s.f, 0));
            only = new Set([file(s.f)]);
          } else if (s.kind === 'delete') {
            rmSync(file(s.f), { force: true });
            current.delete(s.f);
          }
          expect(shape(await reused.scan(false, only))).toEqual(shape(await fresh.scan(false, only)));
        }
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
