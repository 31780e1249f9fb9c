// FileSource against a real temp directory and real fs.watch events.
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store';
import { FileSource } from './fileSource';

const svc = (name: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  ports: [{port: 80, name: http}]\n`;
const names = (store: Store) =>
  store
    .snapshot()
    .services.map((s) => s.name)
    .sort();

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(watch: boolean, namespace?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-fs-'));
  const store = new Store({ debounceMs: 10 });
  const opts = namespace === undefined ? { watch } : { watch, namespace };
  const src = new FileSource('files', [dir], opts);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => store.close(),
    () => src.stop(),
  );
  return { dir, store, src };
}

describe('FileSource', () => {
  it('loads into the sink with replace() and reports a connected status', async () => {
    const { dir, store, src } = setup(false, 'team');
    writeFileSync(join(dir, 'a.yaml'), svc('a'));
    await src.start(store);
    store.flush();
    expect(names(store)).toEqual(['a']);
    expect(store.snapshot().services[0]?.namespace).toBe('team');
    expect(store.statuses()).toMatchObject([{ id: 'files', kind: 'file', state: 'connected' }]);
  });

  it('watch: picks up new files, edits, renames and deletions', async () => {
    const { dir, store, src } = setup(true);
    writeFileSync(join(dir, 'a.yaml'), svc('a'));
    await src.start(store);
    store.flush();
    expect(names(store)).toEqual(['a']);

    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.yaml'), svc('b'));
    await until(() => names(store).join() === 'a,b');

    writeFileSync(join(dir, 'a.yaml'), svc('a2'));
    await until(() => names(store).join() === 'a2,b');

    renameSync(join(dir, 'sub', 'b.yaml'), join(dir, 'sub', 'b.txt'));
    await until(() => names(store).join() === 'a2');

    unlinkSync(join(dir, 'a.yaml'));
    await until(() => names(store).length === 0);
  });

  it('watch: a bad edit keeps the objects of other files, and the last good ones of the edited file, with the located error', async () => {
    const { dir, store, src } = setup(true);
    writeFileSync(join(dir, 'a.yaml'), svc('a'));
    writeFileSync(join(dir, 'b.yaml'), svc('b'));
    await src.start(store);
    store.flush();
    writeFileSync(join(dir, 'b.yaml'), 'apiVersion: v1\nkind: Service\nmetadata: {name: [b\n');
    await until(() => store.snapshot().errors.length > 0);
    expect(names(store)).toEqual(['a', 'b']);
    expect(store.snapshot().errors[0]).toMatchObject({ severity: 'error', file: join(dir, 'b.yaml'), doc: 0 });
    const stale = store.snapshot().errors.find((e) => e.staleSince !== undefined);
    expect(stale).toMatchObject({ severity: 'warning', file: join(dir, 'b.yaml'), object: 'Service default/b' });
    expect(store.statuses()[0]?.lastError).toContain('b.yaml');
    writeFileSync(join(dir, 'b.yaml'), svc('b'));
    await until(() => names(store).join() === 'a,b' && store.snapshot().errors.length === 0);
  });

  it('watch: a single watched file replaced atomically (editor save via rename), deleted and re-created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-fs1-'));
    const file = join(dir, 'mesh.yaml');
    writeFileSync(file, svc('one'));
    const store = new Store({ debounceMs: 10 });
    const src = new FileSource('file', [file], { watch: true });
    cleanups.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => store.close(),
      () => src.stop(),
    );
    await src.start(store);
    store.flush();
    expect(names(store)).toEqual(['one']);
    for (const next of ['two', 'three']) {
      writeFileSync(join(dir, '.mesh.yaml.tmp'), svc(next));
      renameSync(join(dir, '.mesh.yaml.tmp'), file);
      await until(() => names(store).join() === next);
    }
    unlinkSync(file);
    await until(() => names(store).length === 0);
    expect(store.snapshot().errors[0]?.message).toContain('ENOENT');
    writeFileSync(file, svc('four'));
    await until(() => names(store).join() === 'four');
  });

  it('stop() ends watching: later changes are not loaded', async () => {
    const { dir, store, src } = setup(true);
    await src.start(store);
    store.flush();
    await src.stop();
    writeFileSync(join(dir, 'late.yaml'), svc('late'));
    await new Promise((r) => setTimeout(r, 300));
    store.flush();
    expect(names(store)).toEqual([]);
    expect(store.statuses()[0]?.state).toBe('stopped');
  });
});
