// The file source's per-directory watchers (./dirWatch) against a real temp tree: directories created after start
// are watched once a scan has seen them, a watched directory replaced by a new one under the same path is
// re-armed, and an in-place edit parses only the edited file.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../../model/mesh';
import { Store } from '../store';
import { FileSource } from './fileSource';

const svc = (name: string, port = 80) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n  ports: [{port: ${port}, name: http}]\n`;
const portOf = (s: MeshSnapshot | undefined, name: string) => s?.services.find((x) => x.name === name)?.ports[0]?.port;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(cond: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function start(root: string, path = root) {
  const store = new Store({ debounceMs: 10 });
  const src = new FileSource('files', [path], { watch: true, debounceMs: 20, rescanMs: 0 });
  cleanups.push(
    () => rmSync(root, { recursive: true, force: true }),
    () => store.close(),
    () => src.stop(),
  );
  await src.start(store);
  store.flush();
  return { store, src };
}

describe('file source directory watchers', () => {
  it('a subdirectory created after start is watched: a file added in it, then edited in place, is seen both times', async () => {
    const root = mkdtempSync(join(tmpdir(), 'meshscope-dirwatch-'));
    writeFileSync(join(root, 'a.yaml'), svc('a'));
    const { store } = await start(root);
    mkdirSync(join(root, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(root, 'sub', 'deeper', 'b.yaml'), svc('b', 80));
    await until(() => portOf(store.snapshot(), 'b') === 80);
    writeFileSync(join(root, 'sub', 'deeper', 'b.yaml'), svc('b', 81)); // in place: only the subdirectory's watcher sees it
    await until(() => portOf(store.snapshot(), 'b') === 81);
    expect(portOf(store.snapshot(), 'a')).toBe(80);
  });

  it('the watched directory replaced by a new one (rename over): later in-place edits in the new one are seen', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'meshscope-dirwatch-'));
    const dir = join(parent, 'mesh');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), svc('a'));
    const { store } = await start(parent, dir);
    const next = join(parent, 'mesh.next');
    mkdirSync(next);
    writeFileSync(join(next, 'a.yaml'), svc('a', 90));
    rmSync(dir, { recursive: true });
    renameSync(next, dir);
    await until(() => portOf(store.snapshot(), 'a') === 90);
    writeFileSync(join(dir, 'a.yaml'), svc('a', 91));
    await until(() => portOf(store.snapshot(), 'a') === 91);
  });

  it('an in-place edit in a 300-file directory parses that one file only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'meshscope-dirwatch-'));
    for (let i = 0; i < 300; i++) writeFileSync(join(root, `s${i}.yaml`), svc(`s${i}`));
    const { store, src } = await start(root);
    writeFileSync(join(root, 's7.yaml'), svc('s7', 88));
    await until(() => portOf(store.snapshot(), 's7') === 88);
    expect(src.lastReload).toMatchObject({ parsed: 1, files: 300 });
  });
});
