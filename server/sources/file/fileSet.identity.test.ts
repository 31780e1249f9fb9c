// An edit of one document of a narrowed file that leaves an object without identity (no name) is still seen:
// FileSet.contribute checks again every object that is not the very one it found with identity at the same place
// (FileEntry.identified), so the document counts as failing and its last good object is served, marked stale
// (the file source's contract: a document that stops parsing keeps its last good objects).
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FileSet } from './fileSet';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-fileset-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const svc = (name: string | undefined, port: number) =>
  stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { ...(name ? { name } : {}), namespace: 'default' },
    spec: { ports: [{ port }] },
  });

describe('FileSet: an object without identity in an edited document of a narrowed file', () => {
  it("is found, and the document's last good object is served stale until the document is whole again", async () => {
    const file = join(dir, 'svcs.yaml');
    let tick = 1_700_000_000;
    const write = (docs: string[]) => {
      writeFileSync(file, docs.join('---\n'));
      utimesSync(file, ++tick, tick);
    };
    const names = (r: { inputs: readonly { object: { metadata?: unknown } }[] }) =>
      r.inputs.map((i) => (i.object.metadata as { name?: string }).name ?? '(none)');
    const set = new FileSet([dir], { now: () => new Date(0) });
    write([svc('a', 1), svc('b', 1), svc('c', 1)]);
    const first = await set.scan();
    expect(first.errors).toEqual([]);
    write([svc('a', 1), svc('b', 2), svc('c', 1)]);
    const clean = await set.scan(false, new Set([file]));
    expect(clean.pieces).toBe(1); // narrowed: only document 1 parsed again
    expect(clean.errors).toEqual([]);
    write([svc('a', 1), svc(undefined, 3), svc('c', 1)]);
    const anon = await set.scan(false, new Set([file]));
    expect(anon.pieces).toBe(1);
    const stale = anon.errors.filter((e) => e.staleSince !== undefined);
    expect(stale).toMatchObject([{ object: 'Service default/b', doc: 1, file }]);
    expect(names(anon)).toEqual(['a', '(none)', 'c', 'b']); // the nameless object, then b's last good version
    write([svc('a', 1), svc('b', 4), svc('c', 1)]);
    const whole = await set.scan(false, new Set([file]));
    expect(whole.errors).toEqual([]);
    expect(names(whole)).toEqual(['a', 'b', 'c']);
  });
});
