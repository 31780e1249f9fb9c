// The CLI's parse cache (parseCache.ts) returns exactly what parsing returns — on a miss, on a hit, after the
// file changed — and never trusts an entry it cannot read back. The reference is js-yaml's own parse of the
// same text (the plain-YAML fast path), and the whole-file result is compared with an uncached loadPaths.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { bookinfo } from '../../testing/paths';
import { loadPaths } from './loadPaths';
import { jsonSafe, parseCache, parseCacheDir, resultCache } from './parseCache';
import { plainYamlFastPath } from './parseFile';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'meshscope-parsecache-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const reference = (text: string) => loadAll(text, { schema: CORE_SCHEMA });
const services = (n: number, port = 9080) =>
  Array.from(
    { length: n },
    (_, i) => `apiVersion: v1\nkind: Service\nmetadata: {name: s${i}, namespace: ns}\nspec:\n  ports:\n  - port: ${port}\n    name: http\n`,
  ).join('---\n');

describe('parseCache', () => {
  it('a miss parses and stores; a hit returns the same documents without parsing', () => {
    const dir = temp();
    const read = parseCache({ dir, minChars: 0 });
    const text = services(50);
    let parses = 0;
    const counted = (t: string) => (parses++, plainYamlFastPath(t));
    expect(read(text, counted)).toEqual(reference(text));
    expect(read(text, counted)).toEqual(reference(text));
    expect(parses).toBe(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8'))).toHaveLength(1);
  });

  it('a changed text is a miss (the key is the content, not the path)', () => {
    const read = parseCache({ dir: temp(), minChars: 0 });
    read(services(5), plainYamlFastPath);
    const changed = services(5, 8080);
    expect(read(changed, plainYamlFastPath)).toEqual(reference(changed));
  });

  it('an entry that cannot be read back is a miss, removed and written again', () => {
    const dir = temp();
    const read = parseCache({ dir, minChars: 0 });
    const text = services(3);
    read(text, plainYamlFastPath);
    const [entry] = readdirSync(dir);
    writeFileSync(join(dir, entry!), 'not a V8 serialization');
    expect(read(text, plainYamlFastPath)).toEqual(reference(text));
    expect(readFileSync(join(dir, entry!)).subarray(0, 5).toString()).not.toBe('not a');
  });

  it('text that is not plain YAML is not cached (the `yaml` parser reads it, with located errors)', () => {
    const dir = temp();
    const read = parseCache({ dir, minChars: 0 });
    expect(read('a: [1, 2\n', plainYamlFastPath)).toBeUndefined();
    expect(readdirSync(dir)).toHaveLength(0);
  });

  it('small texts are parsed, not cached; the directory keeps at most maxEntries', () => {
    const dir = temp();
    expect(parseCache({ dir, minChars: 10_000 })(services(1), plainYamlFastPath)).toEqual(reference(services(1)));
    expect(readdirSync(dir)).toHaveLength(0);
    const read = parseCache({ dir, minChars: 0, maxEntries: 2 });
    for (let i = 0; i < 4; i++) read(services(i + 1), plainYamlFastPath);
    expect(readdirSync(dir).filter((f) => f.endsWith('.v8'))).toHaveLength(2);
  });

  it('loadPaths through the cache equals loadPaths without it, cold and warm (Bookinfo)', () => {
    const src = bookinfo('platform');
    const plain = loadPaths([src, bookinfo('networking')]);
    const readPlain = parseCache({ dir: temp(), minChars: 0 });
    expect(plain.inputs.length).toBeGreaterThan(20);
    expect(loadPaths([src, bookinfo('networking')], { readPlain })).toEqual(plain);
    expect(loadPaths([src, bookinfo('networking')], { readPlain })).toEqual(plain);
  });

  it('the directory: MESHSCOPE_CACHE_DIR, else XDG_CACHE_HOME, else ~/.cache; MESHSCOPE_PARSE_CACHE=0 is off', () => {
    expect(parseCacheDir({ MESHSCOPE_CACHE_DIR: '/c' })).toBe('/c');
    expect(parseCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'meshscope', 'parsed'));
    expect(parseCacheDir({ MESHSCOPE_PARSE_CACHE: '0', MESHSCOPE_CACHE_DIR: '/c' })).toBeUndefined();
  });
});

describe('entries as JSON or V8 serialization', () => {
  it('jsonSafe: exactly the values JSON.stringify → JSON.parse gives back equal', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const safe: unknown[] = [null, 'x\uD800', true, 0, 1.5, [], [1, 'a', { b: [null] }], { k: { l: 'm' }, __proto__x: 1 }];
    const unsafe: unknown[] = [
      undefined,
      { a: undefined },
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1n,
      new Map(),
      new Date(0),
      // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
      [1, , 3], // a hole: JSON gives null
      { x: shared, y: shared }, // shared: JSON gives two objects
      cyclic,
      Object.create(null),
    ];
    for (const v of safe) expect(jsonSafe(v), JSON.stringify(v)).toBe(true);
    for (const v of safe) expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    for (const v of unsafe) expect(jsonSafe(v)).toBe(false);
  });

  it('a JSON-safe entry is stored as JSON and read back equal; any other as V8, read back with what only V8 keeps', () => {
    const dir = temp();
    const store = resultCache<unknown>({ dir, minChars: 0, buildId: 'b', valid: (v): v is unknown => true });
    const plain = { inputs: [{ kind: 'Pod', n: 1 }], errors: [] };
    store.put('f.yaml', 'one', undefined, plain);
    const shared = { s: 1 };
    const rich = { inputs: [shared, shared], m: new Map([['k', undefined]]) };
    store.put('g.yaml', 'two', undefined, rich);
    const firstBytes = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f))[0])
      .sort();
    expect(firstBytes).toEqual([0x7b, 0xff]); // '{' and V8's version tag
    expect(store.get('f.yaml', 'one', undefined)).toEqual(plain);
    const back = store.get('g.yaml', 'two', undefined) as typeof rich;
    expect(back.m.has('k')).toBe(true);
    expect(back.inputs[0]).toBe(back.inputs[1]);
  });
});
