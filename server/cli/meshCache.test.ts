// The CLI's cache of built snapshots (meshCache.ts): a snapshot read back is the snapshot a build from the files
// gives (the reference: loadPaths + buildSnapshot with no cache at all), frozen, sharing what the built one
// shares; any change to what a build depends on (a byte of a file, a file added, removed or renamed, the
// namespace, --ambient, --mesh-config, the build) is a miss; a snapshot built from texts other than the bytes
// hashed is never stored; an entry that is not what this cache wrote (truncated, altered, another key, another
// shape) is a miss and is removed, without a crash.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import type { MeshSnapshot } from '../model/mesh';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { issueMesh, podName, withVsWeight, writeIssueMesh } from '../../bench/issueMesh';
import { runCli } from '../acceptance/cliRun';
import { loadMesh } from './load';
import { type MeshCache, type MeshCacheQuery, meshCache, plainData } from './meshCache';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'meshscope-meshcache-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A --config directory with Bookinfo's networking files and one service + pod file of our own. */
const meshDir = (weight = 80) => {
  const d = temp();
  for (const f of ['bookinfo-gateway.yaml', 'destination-rule-all.yaml', 'virtual-service-reviews-80-20.yaml'])
    writeFileSync(join(d, f), readFileSync(bookinfo('networking', f), 'utf8'));
  writeFileSync(join(d, 'platform.yaml'), readFileSync(bookinfo('platform', 'bookinfo.yaml'), 'utf8'));
  writeFileSync(
    join(d, 'pods.yaml'),
    `apiVersion: v1
kind: Pod
metadata: {name: reviews-v1-abc, namespace: default, labels: {app: reviews, version: v1}}
spec:
  containers: [{name: app, image: reviews}, {name: istio-proxy, image: proxyv2}]
status: {podIP: 10.0.0.7, podIPs: [{ip: 10.0.0.7}]}
---
apiVersion: v1
kind: Pod
metadata: {name: productpage-v1-xyz, namespace: default, labels: {app: productpage, version: v1}}
spec:
  containers: [{name: app, image: productpage}, {name: istio-proxy, image: proxyv2}]
status: {podIP: 10.0.0.8, podIPs: [{ip: 10.0.0.8}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: ratings, namespace: default}
spec:
  hosts: [ratings]
  http:
  - route:
    - destination: {host: ratings, subset: v1}
      weight: ${weight}
    - destination: {host: ratings, subset: v2}
      weight: ${100 - weight}
`,
  );
  return d;
};

/** The reference: the files loaded and built with no cache of any kind. */
const reference = (paths: string[], ambient = false): MeshSnapshot => {
  const loaded = loadPaths(paths);
  return buildSnapshot(loaded.inputs, { version: 1, extraErrors: loaded.errors, ...(ambient ? { ambient: true } : {}) });
};

const cacheIn = (dir: string, buildId = 'build-1'): MeshCache => meshCache({ dir, buildId, minInputBytes: 0 });

/** Looks up `query`; on a miss, builds through loadMesh with `cache` and stores. Says which it was. */
const run = async (cache: MeshCache, query: MeshCacheQuery) => {
  const before = cache.lookup(query);
  const loaded = await loadMesh(query.paths, {
    ...(query.namespace ? { namespace: query.namespace } : {}),
    ...(query.ambient ? { ambient: true } : {}),
    ...(query.meshConfig ? { meshConfig: query.meshConfig } : {}),
    meshCache: cache,
  });
  return { hit: before?.hit !== undefined, loaded };
};

const content = (s: MeshSnapshot) => {
  const { memo: _memo, ...rest } = s;
  return rest;
};

describe('the cache of built snapshots', () => {
  it('gives back the snapshot a build from the files gives: equal, frozen, sharing what the build shares', async () => {
    const mesh = meshDir();
    const cache = cacheIn(temp());
    const first = await run(cache, { paths: [mesh] });
    expect(first.hit).toBe(false);
    const second = await run(cache, { paths: [mesh] });
    expect(second.hit).toBe(true);
    const s = second.loaded.snapshot;
    const ref = reference([mesh]);
    expect(content(s)).toEqual(content(ref));
    expect(s.proxies.length).toBeGreaterThan(0);
    expect(s.errors).toEqual(ref.errors);
    expect(second.loaded.errors).toEqual(first.loaded.errors);
    // Frozen as buildSnapshot leaves it (the mutation guard), with a memo of its own.
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.services[0])).toBe(true);
    expect(Object.isFrozen(s.proxiesById)).toBe(true);
    expect(s.memo).toBeDefined();
    expect(s.memo).not.toBe(first.loaded.snapshot.memo);
    // Identity kept: a proxy in `proxies` is the one in `proxiesById`, a service the one in `servicesByHost`.
    for (const p of s.proxies) expect(s.proxiesById.get(p.id)).toBe(p);
    for (const svc of s.services) expect(s.servicesByHost.get(svc.hostname)).toContain(svc);
  });

  it('misses on any change a build depends on', async () => {
    const mesh = meshDir();
    const dir = temp();
    const cache = cacheIn(dir);
    const q = { paths: [mesh] };
    expect((await run(cache, q)).hit).toBe(false);
    expect((await run(cache, q)).hit).toBe(true);
    // One byte of one file (the VirtualService weight 80 → 70), then back: the first entry answers again.
    const edited = meshDir(70);
    writeFileSync(join(mesh, 'pods.yaml'), readFileSync(join(edited, 'pods.yaml')));
    const afterEdit = await run(cache, q);
    expect(afterEdit.hit).toBe(false);
    expect(content(afterEdit.loaded.snapshot)).toEqual(content(reference([mesh])));
    expect((await run(cache, q)).hit).toBe(true);
    // A file added to the directory (a new object), removed again, renamed.
    writeFileSync(join(mesh, 'zz-extra.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: extra}\n');
    const added = await run(cache, q);
    expect(added.hit).toBe(false);
    expect(added.loaded.snapshot.namespaces.has('extra')).toBe(true);
    rmSync(join(mesh, 'zz-extra.yaml'));
    expect((await run(cache, q)).hit).toBe(true);
    renameSync(join(mesh, 'pods.yaml'), join(mesh, 'pods2.yaml'));
    const renamed = await run(cache, q);
    expect(renamed.hit).toBe(false);
    expect(renamed.loaded.snapshot.pods.find((p) => p.name === 'reviews-v1-abc')?.origin.file).toBe(join(mesh, 'pods2.yaml'));
    // The flags a build depends on, and another build.
    expect((await run(cache, { ...q, namespace: 'default' })).hit).toBe(false);
    expect((await run(cache, { ...q, ambient: true })).hit).toBe(false);
    expect(content((await run(cache, { ...q, ambient: true })).loaded.snapshot)).toEqual(content(reference([mesh], true)));
    const meshConfig = { file: 'mesh.yaml', text: 'defaultConfig:\n  discoveryAddress: istiod:15012\n' };
    expect((await run(cache, { ...q, meshConfig })).hit).toBe(false);
    expect((await run(cache, { ...q, meshConfig })).hit).toBe(true);
    expect((await run(cache, { ...q, meshConfig: { ...meshConfig, text: `${meshConfig.text}#\n` } })).hit).toBe(false);
    expect((await run(cacheIn(dir, 'build-2'), q)).hit).toBe(false);
    // The directory's files named one by one, in its order, are the same inputs (a hit); in another order, a miss.
    const files = readdirSync(mesh)
      .sort()
      .map((f) => join(mesh, f));
    expect((await run(cache, { paths: files })).hit).toBe(true);
    expect((await run(cache, { paths: [...files].reverse() })).hit).toBe(false);
    expect((await run(cache, { paths: [...files].reverse() })).hit).toBe(true);
  });

  it('never stores a snapshot built from other texts than the bytes it hashed', async () => {
    const mesh = meshDir();
    const dir = temp();
    const cache = cacheIn(dir);
    const miss = cache.lookup({ paths: [mesh] });
    expect(miss && !miss.hit).toBe(true);
    // The file changed between the lookup and the build: what loadPaths read is not what was hashed.
    appendFileSync(join(mesh, 'pods.yaml'), '---\napiVersion: v1\nkind: Namespace\nmetadata: {name: late}\n');
    const loaded = loadPaths([mesh]);
    const texts = new Map(readdirSync(mesh).map((f) => [join(mesh, f), readFileSync(join(mesh, f), 'utf8')]));
    if (miss && !miss.hit) miss.store(buildSnapshot(loaded.inputs, { version: 1 }), texts);
    expect(readdirSync(dir).filter((f) => f.endsWith('.mesh'))).toEqual([]);
    // The same with the texts of the bytes hashed: stored.
    const again = cache.lookup({ paths: [mesh] });
    if (again && !again.hit) again.store(buildSnapshot(loadPaths([mesh]).inputs, { version: 1 }), texts);
    expect(readdirSync(dir).filter((f) => f.endsWith('.mesh'))).toHaveLength(1);
    expect(cache.lookup({ paths: [mesh] })?.hit).toBeDefined();
  });

  it('treats an entry it did not write as a miss and removes it', async () => {
    const mesh = meshDir();
    const dir = temp();
    const cache = cacheIn(dir);
    await run(cache, { paths: [mesh] });
    const [name] = readdirSync(dir).filter((f) => f.endsWith('.mesh'));
    const file = join(dir, name!);
    const good = readFileSync(file);
    const key = name!.replace(/\.mesh$/, '');
    const magic = good.subarray(0, good.indexOf(0x0a) + 1);
    const entry = (payload: Buffer) => Buffer.concat([magic, createHash('sha256').update(payload).digest(), payload]);
    const bad: [string, Buffer][] = [
      ['truncated', good.subarray(0, good.length - 100)],
      [
        'a byte altered',
        Buffer.concat([good.subarray(0, good.length - 10), Buffer.from([good[good.length - 10]! ^ 1]), good.subarray(good.length - 9)]),
      ],
      ['garbage', Buffer.from('not an entry')],
      ['empty', Buffer.alloc(0)],
      ['sound, another key', entry(serialize({ key: 'other', snapshot: content(reference([mesh])) }))],
      ['sound, not a snapshot', entry(serialize({ key, snapshot: { version: 1, services: 'no' } }))],
      ['sound, not a V8 serialization', entry(Buffer.from('{"key":1}'))],
    ];
    for (const [why, bytes] of bad) {
      writeFileSync(file, bytes);
      const r = cache.lookup({ paths: [mesh] });
      expect(r?.hit, why).toBeUndefined();
      expect(readdirSync(dir).includes(name!), why).toBe(false);
    }
    writeFileSync(file, good);
    expect(cache.lookup({ paths: [mesh] })?.hit).toBeDefined();
  });

  it('is not used for stdin, a file that cannot be read, inputs under its size floor', async () => {
    const mesh = meshDir();
    const dir = temp();
    expect(cacheIn(dir).lookup({ paths: ['-'] })).toBeUndefined();
    expect(cacheIn(dir).lookup({ paths: [join(mesh, 'missing.yaml')] })).toBeUndefined();
    expect(meshCache({ dir, buildId: 'b', minInputBytes: 10 * 1024 * 1024 }).lookup({ paths: [mesh] })).toBeUndefined();
  });

  it('stores plain data only', () => {
    class Thing {
      x = 1;
    }
    expect(plainData({ a: [1, 'x', null, undefined, new Map([['k', new Set([1])]])] })).toBe(true);
    const shared = { s: 1 };
    expect(plainData({ a: shared, b: [shared] })).toBe(true);
    expect(plainData({ a: new Thing() })).toBe(false);
    expect(plainData({ a: () => 1 })).toBe(false);
    expect(plainData({ [Symbol('s')]: 1 })).toBe(false);
    expect(plainData(Object.defineProperty({}, 'g', { get: () => 1, enumerable: true }))).toBe(false);
    expect(plainData(Object.defineProperty({}, 'h', { value: 1, enumerable: false }))).toBe(false);
    expect(plainData({ d: new Date(0) })).toBe(false);
    expect(plainData(1n)).toBe(false);
  });
});

describe('the CLI with the cache of built snapshots', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    runCli(args, undefined, {
      timeoutMs: 120_000,
      maxBuffer: 256 * 1024 * 1024,
      env: { MESHSCOPE_CLI_TSX: '', MESHSCOPE_PARSE_WORKERS: '0', ...env },
    });

  it('prints what a run without any cache prints, on a miss, on a hit and after an edit', () => {
    const tmp = temp();
    mkdirSync(join(tmp, 'mesh'));
    const mesh = issueMesh(60);
    const files = writeIssueMesh(mesh, 'multidoc', join(tmp, 'mesh'));
    const args = ['translate', '--config', files.dir, '--proxy', `${podName(0, 'v1').pod}.ns-0`, '--type', 'all'];
    const cache = { MESHSCOPE_CACHE_DIR: join(tmp, 'cache') };
    const entries = () => readdirSync(join(tmp, 'cache')).filter((f) => f.endsWith('.mesh'));
    const off = cli(args, { MESHSCOPE_PARSE_CACHE: '0' });
    expect(off.status).toBe(0);
    expect(off.stdout).toContain('"weight": 80');
    expect(cli(args, cache)).toEqual(off); // a miss: built, stored
    expect(entries()).toHaveLength(1);
    const written = statSync(join(tmp, 'cache', entries()[0]!)).mtimeMs;
    expect(cli(args, cache)).toEqual(off); // a hit: read back, not written again
    expect(statSync(join(tmp, 'cache', entries()[0]!)).mtimeMs).toBe(written);
    // svc-0's VirtualService at 30/70 in the 60-document file: a miss, and what a run without cache prints.
    files.write('VirtualService', withVsWeight(mesh, 30));
    const offEdited = cli(args, { MESHSCOPE_PARSE_CACHE: '0' });
    expect(offEdited.stdout).not.toBe(off.stdout);
    expect(offEdited.stdout).toContain('"weight": 30');
    for (const _ of ['miss', 'hit']) expect(cli(args, cache)).toEqual(offEdited);
    expect(entries()).toHaveLength(2);
  }, 240_000);
});
