// A scan of only the files changed in place (what the watcher asks) patches the last scan's output when every
// changed file had and has no error and keeps its object count (FileSet.patchLast: one edited document of a big
// file, or one of 35,000 one-object files, without walking the others). Invisible: over random in-place edits of a
// few files — a value changed, a document added or removed, a syntax error, an object without a name, the file
// made valid again — a FileSet scanning only the changed file gives the same objects (and origins) and errors as
// one that mirrors every edit with a full scan.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FileSet } from './fileSet';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FILES = 4;
const vs = (name: string, w: number) =>
  stringify({
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name, namespace: 'default' },
    spec: { hosts: [name], http: [{ route: [{ destination: { host: name }, weight: w }] }] },
  });
/** File `f`'s text in variant `v`: one or several documents, now and then broken. */
function text(f: number, v: number): string {
  const docs = 1 + (v % 3);
  const parts = Array.from({ length: docs }, (_, d) => vs(`f${f}-d${d}`, (v * 7) % 101));
  if (v % 7 === 5) parts[docs - 1] = 'kind: [unclosed\n'; // a syntax error in the last document
  if (v % 11 === 9) parts[0] = stringify({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'default' } }); // no name
  return parts.join('---\n');
}

const shape = (r: { inputs: readonly { object: unknown; origin: unknown }[]; errors: readonly unknown[] }) => ({
  inputs: r.inputs.map((i) => ({ object: i.object, origin: i.origin })),
  errors: r.errors,
});

describe('FileSet: a scan of the changed files equals a full scan', () => {
  it('over random in-place edits, errors and recoveries of a few files', async () => {
    let tick = 1_700_000_000;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(FILES - 1), fc.nat(60)), { minLength: 1, maxLength: 12 }), async (edits) => {
        const dir = mkdtempSync(join(tmpdir(), 'meshscope-fileset-'));
        dirs.push(dir);
        const file = (f: number) => join(dir, `f${f}.yaml`);
        const write = (f: number, v: number) => {
          writeFileSync(file(f), text(f, v));
          utimesSync(file(f), ++tick, tick); // a new stat on every write, however fast
        };
        for (let f = 0; f < FILES; f++) write(f, f);
        const now = () => new Date(0);
        const only = new FileSet([dir], { now });
        const full = new FileSet([dir], { now });
        expect(shape(await only.scan())).toEqual(shape(await full.scan()));
        for (const [f, v] of edits) {
          write(f, v);
          const a = await only.scan(false, new Set([file(f)]));
          const b = await full.scan(false);
          expect(shape(a)).toEqual(shape(b));
          expect(a.parsed).toBe(b.parsed);
        }
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
