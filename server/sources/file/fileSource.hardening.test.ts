// Issue 14 items 1–4 against a real temp directory: real renames, a real `sed -i`, real symlink loops and
// a real 150k-object file. The store's snapshots are what ADS serves, so "never pushed" is checked on every
// snapshot the store emits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../../model/mesh';
import { Store } from '../store';
import { FileSource, type FileSourceOptions } from './fileSource';
import { DEFAULT_FILE_LIMITS } from './parseFile';

const svc = (name: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  ports: [{port: 80, name: http}]\n`;
const VS = (subset: string) =>
  'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\nspec:\n  hosts:\n  - reviews\n' +
  `  http:\n  - route:\n    - destination:\n        host: reviews\n        subset: ${subset}\n`;
const subsetOf = (s: MeshSnapshot) =>
  s.virtualServices.find((v) => v.meta.name === 'reviews')?.spec.http?.[0]?.route?.[0]?.destination.subset;
const names = (store: Store) =>
  store
    .snapshot()
    .services.map((s) => s.name)
    .sort()
    .join();

async function until(cond: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(files: Record<string, string>, opts: FileSourceOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-fsh-'));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  const store = new Store({ debounceMs: 10 });
  const snaps: MeshSnapshot[] = [];
  store.onChange((s) => snaps.push(s));
  const src = new FileSource('files', [dir], { watch: true, debounceMs: 20, ...opts });
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => store.close(),
    () => src.stop(),
  );
  await src.start(store);
  store.flush();
  return { dir, store, src, snaps };
}

describe('last good objects (issue 14.1)', () => {
  it('one removed space in a VirtualService file: the VS keeps serving (never a snapshot without it), error located, marked stale', async () => {
    const { dir, store, snaps } = await start({ 'svc.yaml': svc('reviews'), 'vs.yaml': VS('v3') });
    expect(subsetOf(store.snapshot())).toBe('v3');
    writeFileSync(join(dir, 'vs.yaml'), VS('v3').replace('        subset', '       subset'));
    await until(() => store.snapshot().errors.length > 0);
    const snap = store.snapshot();
    expect(subsetOf(snap)).toBe('v3');
    expect(snaps.every((s) => subsetOf(s) === 'v3')).toBe(true);
    expect(snap.errors[0]).toMatchObject({ severity: 'error', file: join(dir, 'vs.yaml'), doc: 0 });
    expect(snap.errors[0]?.message).toMatch(/^YAML syntax error at line 12/);
    const stale = snap.errors.find((e) => e.staleSince !== undefined);
    expect(stale).toMatchObject({ file: join(dir, 'vs.yaml'), object: 'VirtualService default/reviews' });
    expect(stale?.message).toBe(
      `stale: last good from ${stale?.staleSince} (the file has errors; its last good version of this object is served)`,
    );
    // Fixed: the new content is used and the marks go away.
    writeFileSync(join(dir, 'vs.yaml'), VS('v1'));
    await until(() => subsetOf(store.snapshot()) === 'v1' && store.snapshot().errors.length === 0);
  });

  it('an invalid file swapped in by rename keeps all its objects; a document that still parses uses its new objects', async () => {
    const { dir, store } = await start({ 'm.yaml': `${svc('a')}---\n${svc('b')}` });
    expect(names(store)).toBe('a,b');
    writeFileSync(join(dir, '.m.tmp'), '{{{ this is not yaml ]]]\n');
    renameSync(join(dir, '.m.tmp'), join(dir, 'm.yaml'));
    await until(() => store.snapshot().errors.length > 0);
    expect(names(store)).toBe('a,b');
    expect(
      store
        .snapshot()
        .errors.filter((e) => e.staleSince)
        .map((e) => e.object),
    ).toEqual(['Service default/a', 'Service default/b']);
    // Doc 0 parses again (a renamed to a2), doc 1 is still broken: a2 is new, b stays stale, a is gone.
    writeFileSync(join(dir, 'm.yaml'), `${svc('a2')}---\nmetadata: {name: [b\n`);
    await until(() => names(store) === 'a2,b');
    expect(
      store
        .snapshot()
        .errors.filter((e) => e.staleSince)
        .map((e) => e.object),
    ).toEqual(['Service default/b']);
  });

  it('an unreadable file keeps its last good objects (located error)', async () => {
    if (process.getuid?.() === 0) return expect(true).toBe(true); // root reads everything; nothing to test
    const { dir, store } = await start({ 'a.yaml': svc('a') });
    spawnSync('chmod', ['000', join(dir, 'a.yaml')]);
    await until(() => store.snapshot().errors.length > 0);
    expect(names(store)).toBe('a');
    expect(store.snapshot().errors[0]).toMatchObject({
      severity: 'error',
      file: join(dir, 'a.yaml'),
      message: expect.stringContaining('EACCES'),
    });
  });
});

describe('duplicates (issue 14.2)', () => {
  it('the same object in two files: a located error naming both; the lexicographically last file wins, whatever the write order', async () => {
    const { dir, store } = await start({ 'b.yaml': VS('from-b'), 'a.yaml': VS('from-a') });
    expect(subsetOf(store.snapshot())).toBe('from-b');
    const dup = store.snapshot().errors.find((e) => e.message.startsWith('duplicate object'));
    expect(dup).toMatchObject({ severity: 'error', object: 'VirtualService default/reviews', file: join(dir, 'b.yaml'), doc: 0 });
    expect(dup?.message).toContain(`${join(dir, 'a.yaml')}#0`);
    expect(dup?.message).toContain(`${join(dir, 'b.yaml')}#0`);
  });
});

describe('the watcher never goes deaf (issue 14.3, issue 12 rename-save bug)', () => {
  it('rename-over twice, then `sed -i`, then an in-place edit: every change gives a new snapshot', async () => {
    const { dir, store } = await start({ 'mesh.yaml': svc('one') });
    const file = join(dir, 'mesh.yaml');
    for (const next of ['two', 'three']) {
      writeFileSync(join(dir, '.mesh.yaml.swp'), svc(next));
      renameSync(join(dir, '.mesh.yaml.swp'), file);
      await until(() => names(store) === next);
    }
    const sed = spawnSync('sed', ['-i', 's/three/four/', file]);
    expect(sed.status).toBe(0);
    await until(() => names(store) === 'four');
    writeFileSync(file, svc('five'));
    await until(() => names(store) === 'five');
    writeFileSync(file, svc('six'));
    await until(() => names(store) === 'six');
  });

  it('a symlink loop (directory and file) is a located error and the directory keeps being watched', async () => {
    const { dir, store } = await start({ 'a.yaml': svc('a') });
    symlinkSync(dir, join(dir, 'loop'));
    symlinkSync(join(dir, 'y.yaml'), join(dir, 'x.yaml'));
    symlinkSync(join(dir, 'x.yaml'), join(dir, 'y.yaml'));
    await until(() => store.snapshot().errors.length >= 3);
    const errs = store.snapshot().errors.map((e) => [e.file, e.message]);
    expect(errs).toContainEqual([join(dir, 'loop'), expect.stringContaining('symlink loop')]);
    expect(errs).toContainEqual([join(dir, 'x.yaml'), expect.stringContaining('symlink loop')]);
    expect(errs).toContainEqual([join(dir, 'y.yaml'), expect.stringContaining('symlink loop')]);
    writeFileSync(join(dir, 'b.yaml'), svc('b'));
    await until(() => names(store) === 'a,b');
    writeFileSync(join(dir, 'a.yaml'), svc('a2'));
    await until(() => names(store) === 'a2,b');
  });

  it('the periodic rescan finds a change the watcher never reported (content hash), and is cheap when nothing changed', async () => {
    const { dir, store, src } = await start({ 'a.yaml': svc('a') }, { watch: false, rescanMs: 0 });
    writeFileSync(join(dir, 'a.yaml'), svc('b'));
    await src.reload(true);
    store.flush();
    expect(names(store)).toBe('b');
    expect(src.lastReload?.parsed).toBe(1);
    await src.reload(true);
    expect(src.lastReload?.parsed).toBe(0); // re-read and hashed, not re-parsed
  });
});

describe('big inputs never crash the reload (issue 14.4)', () => {
  it('a big file appearing in the directory never holds up an edit to another file (issue #25)', async () => {
    // A 1.3 MB YAML List of 8,000 Services (under the object limit): the YAML parser takes seconds on it. The
    // edit to vs.yaml, written right after it, is served by a snapshot that does not have the big file yet;
    // the big file's objects follow when its background parse is done. (Before: one reload parsed big.yaml
    // first, and the edit waited for it.)
    const { dir, store, snaps } = await start({ 'svc.yaml': svc('reviews'), 'vs.yaml': VS('v1') }, { rescanMs: 0 });
    const items = Array.from(
      { length: 8_000 },
      (_, i) =>
        `- apiVersion: v1\n  kind: Service\n  metadata: {name: big-${i}, namespace: big}\n  spec:\n    ports:\n    - {port: 80, name: http}\n`,
    );
    const big = `apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;
    expect(big.length).toBeGreaterThan(1_000_000);
    writeFileSync(join(dir, 'big.yaml'), big);
    writeFileSync(join(dir, 'vs.yaml'), VS('v2'));
    await until(() => snaps.some((s) => subsetOf(s) === 'v2'), 60_000);
    const first = snaps.find((s) => subsetOf(s) === 'v2')!;
    expect(first.services.some((s) => s.namespace === 'big')).toBe(false);
    await until(() => store.snapshot().services.filter((s) => s.namespace === 'big').length === 8_000, 120_000);
    expect(subsetOf(store.snapshot())).toBe('v2');
  }, 180_000);

  it('a half-written big JSON file is a located JSON error at once, never handed to the YAML parser', async () => {
    const { dir, store } = await start({ 'other.yaml': svc('other') }, { rescanMs: 0 });
    const items = Array.from({ length: 30_000 }, (_, i) => `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s-${i}"},"spec":{}}`);
    const text = `{"apiVersion":"v1","kind":"List","items":[${items.join(',')}]}`;
    writeFileSync(join(dir, 'big.json'), text.slice(0, Math.floor(text.length / 2)));
    await until(() => store.snapshot().errors.some((e) => e.file === join(dir, 'big.json')), 60_000);
    const err = store.snapshot().errors.find((e) => e.file === join(dir, 'big.json'));
    expect(err).toMatchObject({ severity: 'error', doc: 0 });
    expect(err?.message).toMatch(/^JSON syntax error at line 1, column \d+: /);
    expect(names(store)).toBe('other');
  }, 120_000);
  it('a valid 150k-object List (~13.5 MB) is refused with a located limit error; the last good keeps serving; timers run meanwhile', async () => {
    const { dir, store, src } = await start({ 'big.json': svc('small'), 'other.yaml': svc('other') }, { rescanMs: 0 });
    const items: string[] = [];
    for (let i = 0; i < 150_000; i++)
      items.push(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s-${i}","namespace":"big"},"spec":{}}`);
    const text = `{"apiVersion":"v1","kind":"List","items":[${items.join(',')}]}`;
    expect(text.length).toBeGreaterThan(12_000_000);
    writeFileSync(join(dir, 'big.json'), text);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const reload = src.reload(true);
    await new Promise((r) => setImmediate(r));
    const before = ticks;
    await reload;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(before); // a healthz-like callback ran while the reload was in progress
    store.flush();
    expect(names(store)).toBe('other,small');
    const err = store.snapshot().errors[0];
    expect(err).toMatchObject({ severity: 'error', file: join(dir, 'big.json'), doc: 0 });
    expect(err?.message).toContain(`over the limit of ${DEFAULT_FILE_LIMITS.maxObjectsPerFile} per file`);
    expect(store.statuses()[0]?.lastError).toContain('too many objects');
  }, 60_000);

  it('20 MB of bad lines: refused by the size limit, located, last good kept; bad lines under the limit: errors capped, no crash', async () => {
    const { dir, store, src } = await start({ 'junk.yaml': svc('keep') }, { rescanMs: 0 });
    writeFileSync(join(dir, 'junk.yaml'), 'a: b: c\n'.repeat(2_700_000));
    await src.reload(true);
    store.flush();
    expect(names(store)).toBe('keep');
    expect(store.snapshot().errors[0]).toMatchObject({
      severity: 'error',
      file: join(dir, 'junk.yaml'),
      message: expect.stringMatching(/^file too large: 20\.6 MiB/),
    });
    // 150k bad lines (1.2 MB): one error each from the parser; kept to the cap, summarised, never spread onto the stack.
    writeFileSync(join(dir, 'junk.yaml'), 'a: b: c\n'.repeat(150_000));
    await src.reload(true);
    store.flush();
    expect(names(store)).toBe('keep');
    const errs = store.snapshot().errors.filter((e) => e.file === join(dir, 'junk.yaml'));
    expect(errs.filter((e) => e.message.startsWith('YAML syntax error'))).toHaveLength(DEFAULT_FILE_LIMITS.maxErrorsPerFile);
    expect(errs.some((e) => /^\d+ more errors in this file not shown/.test(e.message))).toBe(true);
  }, 60_000);

  it('per-file object limit: at the limit the file loads, one over it is refused', async () => {
    const limits = { ...DEFAULT_FILE_LIMITS, maxObjectsPerFile: 3 };
    const three = [1, 2, 3].map((i) => svc(`s${i}`)).join('---\n');
    const { dir, store, src } = await start({ 'f.yaml': three }, { limits, rescanMs: 0 });
    expect(names(store)).toBe('s1,s2,s3');
    writeFileSync(join(dir, 'f.yaml'), `${three}---\n${svc('s4')}`);
    await src.reload(true);
    store.flush();
    expect(names(store)).toBe('s1,s2,s3');
    expect(store.snapshot().errors[0]?.message).toMatch(/^too many objects: at least 4 in this file, over the limit of 3/);
  });

  it('an exception while building the snapshot becomes a source error; the last good snapshot keeps serving', async () => {
    const store = new Store({ debounceMs: 10 });
    cleanups.push(() => store.close());
    store.status({ id: 'x', kind: 'file', state: 'connected' });
    store.replace('x', [{ object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ok' } }, origin: { source: 'file' } }]);
    store.flush();
    const good = store.snapshot();
    const poisoned = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'boom' },
      get spec(): unknown {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    store.replace('x', [{ object: poisoned, origin: { source: 'file' } }]);
    store.flush();
    expect(store.snapshot()).toBe(good);
    expect(store.statuses()[0]).toMatchObject({ state: 'failing', lastError: expect.stringContaining('Maximum call stack size exceeded') });
    store.replace('x', [{ object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ok2' } }, origin: { source: 'file' } }]);
    store.flush();
    expect(store.snapshot().services.map((s) => s.name)).toEqual(['ok2']);
    expect(store.statuses()[0]?.state).toBe('connected');
  });
});
