// One debounce window from a file write to the snapshot (issue 12): istiod debounces config events once
// (pilot/pkg/xds/discovery.go debounce, PILOT_DEBOUNCE_AFTER 100 ms, bounded by PILOT_DEBOUNCE_MAX 10 s). The file
// source debounces its reloads and hands the store a settled batch, which the store publishes on the next turn;
// event-by-event sources (upsert/remove, e.g. Kubernetes watches) still get the store's debounce. Real timers,
// real files; no assertion on how long anything takes beyond "before a debounce that long could have ended".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../model/mesh';
import { FileSource } from './file/fileSource';
import { Store, type StoreChange } from './store';
import type { RawInput } from './types';

const origin = { source: 'file' as const, file: 'mem.yaml', doc: 0 };
const svc = (name: string, port = 80): RawInput => ({
  object: { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { ports: [{ name: 'http', port }] } },
  origin,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function store(debounceMs: number): { store: Store; events: StoreChange[] } {
  const s = new Store({ debounceMs, maxDelayMs: 60_000 });
  const events: StoreChange[] = [];
  s.onChange((_snap, change) => events.push(change));
  cleanups.push(() => s.close());
  return { store: s, events };
}

describe('store: a settled batch is not debounced again', () => {
  it('replace(..., { settled: true }) is published on the next turn; a plain replace waits for the debounce', async () => {
    const { store: s, events } = store(60_000);
    s.replace('files', [svc('a')], [], { settled: true });
    expect(events).toHaveLength(0); // never inside the source's call
    await sleep(20);
    expect(events.map((e) => e.changed)).toEqual([['core/v1/Service/default/a']]);
    s.replace('files', [svc('a'), svc('b')]);
    await sleep(50);
    expect(events).toHaveLength(1); // still inside the 60 s debounce
    s.flush();
    expect(events).toHaveLength(2);
  });

  it('an upsert pending in the debounce is published with a settled batch of another source, in one event', async () => {
    const { store: s, events } = store(60_000);
    s.upsert('kube', svc('k'));
    s.replace('files', [svc('f')], [], { settled: true });
    await sleep(20);
    expect(events).toHaveLength(1);
    expect(events[0]!.changed).toEqual(['core/v1/Service/default/f', 'core/v1/Service/default/k']);
    // After the flush, upserts are debounced again.
    s.upsert('kube', svc('k', 81));
    await sleep(50);
    expect(events).toHaveLength(1);
  });

  it('a source re-sending deep-equal copies changes nothing: no event, and the stored objects stay the same objects', async () => {
    const { store: s, events } = store(60_000);
    s.replace('files', [svc('a'), svc('b')]);
    s.flush();
    const before = s.inputs();
    const snap = s.snapshot();
    s.replace('files', [structuredClone(svc('a')), structuredClone(svc('b'))], [], { settled: true });
    await sleep(20);
    expect(events).toHaveLength(1);
    expect(s.inputs()).toEqual(before);
    expect(s.inputs().every((x, i) => x === before[i])).toBe(true);
    expect(s.snapshot()).toBe(snap);
  });
});

describe('file source: one debounce, bounded like PILOT_DEBOUNCE_MAX', () => {
  async function watched(opts: { debounceMs: number; maxDelayMs?: number }, storeDebounceMs: number) {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-settled-'));
    const file = join(dir, 'svc.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: 80, name: http}]\n');
    const { store: s } = store(storeDebounceMs);
    const snaps: MeshSnapshot[] = [];
    s.onChange((snap) => snaps.push(snap));
    const src = new FileSource('files', [dir], { watch: true, rescanMs: 0, ...opts });
    cleanups.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => src.stop(),
    );
    await src.start(s);
    s.flush();
    return { file, store: s, snaps };
  }
  const port = (s: MeshSnapshot | undefined) => s?.services.find((x) => x.name === 'a')?.ports[0]?.port;
  const until = async (cond: () => boolean, ms = 8000) => {
    const end = Date.now() + ms;
    while (!cond() && Date.now() < end) await sleep(10);
  };

  it('an edit reaches the store as a settled batch: the store (debounce 60 s) publishes it without waiting', async () => {
    const { file, snaps } = await watched({ debounceMs: 20 }, 60_000);
    writeFileSync(file, 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: 81, name: http}]\n');
    await until(() => port(snaps.at(-1)) === 81);
    expect(port(snaps.at(-1))).toBe(81);
  });

  it('a file rewritten without a quiet pause is still reloaded within maxDelayMs', async () => {
    const { file, snaps } = await watched({ debounceMs: 400, maxDelayMs: 300 }, 60_000);
    let p = 1000;
    const end = Date.now() + 1500;
    // A write every 25 ms: the 400 ms quiet window never comes while writing.
    const loaded = snaps.length;
    while (Date.now() < end && snaps.length === loaded) {
      writeFileSync(file, `apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: ${++p}, name: http}]\n`);
      await sleep(25);
    }
    expect(snaps.length).toBeGreaterThan(loaded);
    expect(port(snaps.at(-1))).toBeGreaterThan(1000);
  });
});
