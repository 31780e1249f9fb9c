// The scopes' warm-up (scopeWarmup.ts): the outbound part of each Sidecar scope built before any client asks.
// Checked against what istiod's sharing rule gives (one outbound build per SidecarScope, inbound per proxy:
// pilot/pkg/model/xds_cache.go keys; pilot/pkg/model/push_context.go initSidecarScopes builds every namespace's
// scope before the server is ready) and against each proxy translated alone:
// - after it, every proxy of the mesh is served exactly what translating it alone gives, and no proxy is
//   translated in full (each gets its scope's part beside its own inbound resources);
// - it builds one part per scope (per namespace of issue 24's mesh: Sidecar `./*` in each), not per proxy;
// - it never fills the scopes' byte bound past what it holds, stops at a newer snapshot, and is off unless asked.
import { describe, expect, it } from 'vitest';
import { issueMesh, KINDS, withVsWeight } from '../../bench/issueMesh';
import { DEFAULT_OPTIONS, type MeshSnapshot } from '../model/mesh';
import { EncodeMemo, encodeTable } from '../pipeline/encodeTable';
import { encodedOf } from '../pipeline/generators';
import { inboundResources } from '../pipeline/scopeSharing';
import { resourcesDigest } from '../pipeline/proxyResources';
import { SharedResourceCache } from '../pipeline/sharedResources';
import { buildProxyTable } from '../pipeline/stages';
import { Store } from '../sources/store';
import type { RawInput } from '../sources/types';
import { ScopeWarmup, STARTUP_MS } from './scopeWarmup';
import { createXdsPlane } from './xdsPlane';

const inputs = (services: number, namespaces: number): RawInput[] => {
  const mesh = issueMesh(services, namespaces);
  return KINDS.flatMap((k) => mesh.byKind[k]).map((object) => ({ object, origin: { source: 'demo', file: 'mesh' } }));
};

function storeOf(list: RawInput[]): Store {
  const store = new Store({ debounceMs: 1_000_000 });
  store.replace('t', list);
  store.flush();
  return store;
}

const alone = (snap: MeshSnapshot, id: string) => {
  const p = snap.proxiesById.get(id)!;
  return resourcesDigest(encodeTable(p, snap.version, buildProxyTable(snap, p, DEFAULT_OPTIONS)));
};

describe('the scopes warm-up', () => {
  it('builds one outbound part per Sidecar scope; every proxy served after it equals its own translation, none translated in full', async () => {
    const store = storeOf(inputs(40, 4));
    const snap = store.snapshot();
    const cache = new SharedResourceCache();
    const warm = new ScopeWarmup(cache, () => store.snapshot(), DEFAULT_OPTIONS, true);
    warm.start();
    const s = await warm.settled();
    const namespaces = new Set(snap.proxies.filter((p) => p.type === 'sidecar').map((p) => p.namespace));
    expect(s).toMatchObject({ state: 'done', version: snap.version, scopes: namespaces.size });
    expect(namespaces.size).toBe(4);
    expect(cache.stats()).toMatchObject({ scopesWarmed: 4, translations: 0, entries: 0 });
    // A client that came and went (its entry dropped, the cache empty again) leaves the warmed parts as they were.
    cache.release([]);

    for (const p of snap.proxies) {
      const r = cache.resources(snap, p, DEFAULT_OPTIONS, () => buildProxyTable(snap, p, DEFAULT_OPTIONS, cache.memos));
      expect(resourcesDigest(r), p.id).toBe(alone(snap, p.id));
    }
    const sidecars = snap.proxies.filter((p) => p.type === 'sidecar').length;
    const st = cache.stats();
    expect(st.scopeShared).toBe(sidecars); // every sidecar: its scope's part beside its own inbound resources
    expect(st.translations).toBe(snap.proxies.length - sidecars); // only the gateway (not shared by scope) in full
    store.close();
  });

  it("wraps each part's resources in their wire forms before any client: a scope's first stream wraps only its own inbound ones", async () => {
    const store = storeOf(inputs(40, 4));
    const snap = store.snapshot();
    const off = createXdsPlane(store, DEFAULT_OPTIONS, {});
    expect(off.ads.stats().anyCache).toBe(0); // no warm-up, nothing wrapped
    await off.close();
    const plane = createXdsPlane(store, DEFAULT_OPTIONS, { warmup: true });
    expect(await plane.warmup.settled()).toMatchObject({ state: 'done', scopes: 4 });
    // `anyCache` counts wrapped contents still alive (weakly held): every resource counted here stays strongly held
    // (the scope parts, the cache entries made below), so the counts do not depend on when V8 collects.
    const wrapped = plane.ads.stats().anyCache;
    expect(wrapped).toBeGreaterThan(0);
    // One sidecar per scope, served as a stream would be: of what it sends, only its own inbound resources are new.
    const key = (e: { typeUrl: string; name: string; hash: string }) => `${e.typeUrl}\n${e.name}\n${e.hash}`;
    const own = new Set<string>();
    for (const ns of new Set(snap.proxies.filter((p) => p.type === 'sidecar').map((p) => p.namespace))) {
      const p = snap.proxies.find((q) => q.type === 'sidecar' && q.namespace === ns)!;
      const served = plane.cache.resources(snap, p, DEFAULT_OPTIONS, () => buildProxyTable(snap, p, DEFAULT_OPTIONS, plane.cache.memos));
      for (const e of encodedOf(inboundResources(snap, p, DEFAULT_OPTIONS, new EncodeMemo())!)) own.add(key(e));
      plane.ads.prewrap(encodedOf(served));
    }
    expect(own.size).toBeGreaterThan(0);
    expect(plane.ads.stats().anyCache - wrapped).toBe(own.size);
    await plane.close();
    store.close();
  });

  it("stops at the scopes' byte bound instead of evicting what it built", async () => {
    const store = storeOf(inputs(40, 4));
    // A bound that holds about one part of this mesh (the scopes get half of it).
    const cache = new SharedResourceCache(2 * 1024 * 1024);
    const warm = new ScopeWarmup(cache, () => store.snapshot(), DEFAULT_OPTIONS, true);
    warm.start();
    const s = await warm.settled();
    expect(s.state).toBe('full');
    expect(s.scopes).toBeGreaterThanOrEqual(1);
    expect(s.scopes).toBeLessThan(4);
    store.close();
  });

  it('is cut short by a newer snapshot, and warms that one when started again', async () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object): RawInput => ({ object, origin: { source: 'demo', file: 'mesh' } }));
    const store = storeOf(base);
    const cache = new SharedResourceCache();
    const warm = new ScopeWarmup(cache, () => store.snapshot(), DEFAULT_OPTIONS, true);
    warm.start();
    store.upsert('t', { object: withVsWeight(mesh, 70)[0]!, origin: { source: 'demo', file: 'mesh' } });
    store.flush();
    const s = await warm.settled();
    expect(s.state).toBe('stopped');
    warm.start();
    expect(await warm.settled()).toMatchObject({ state: 'done', version: store.snapshot().version, scopes: 4 });
    store.close();
  });

  it('warms changes only while the server starts: not after a whole snapshot was warmed, nor once a client was seen', async () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object): RawInput => ({ object, origin: { source: 'demo', file: 'mesh' } }));
    const edit = (w: number) => {
      store.upsert('t', { object: withVsWeight(mesh, w)[0]!, origin: { source: 'demo', file: 'mesh' } });
      store.flush();
    };
    const store = storeOf(base);
    const cache = new SharedResourceCache();
    const warm = new ScopeWarmup(cache, () => store.snapshot(), DEFAULT_OPTIONS, true);
    warm.start();
    edit(70); // a kube source's next list, before the first run ended
    warm.changed(0);
    expect(await warm.settled()).toMatchObject({ state: 'done', version: store.snapshot().version, scopes: 4 });
    edit(60);
    warm.changed(0);
    expect(warm.state().state).toBe('done'); // past start-up: the pushes build what changes
    expect(cache.stats().scopesWarmed).toBe(4);

    const cold = new ScopeWarmup(new SharedResourceCache(), () => store.snapshot(), DEFAULT_OPTIONS, true);
    cold.changed(1); // a client is connected: never again
    cold.changed(0);
    expect(cold.state().state).toBe('off');
    store.close();
  });

  it('while the sources load, a warmed partial snapshot does not end start-up: the loaded one is warmed too', async () => {
    const mesh = issueMesh(40, 4);
    const objects = KINDS.flatMap((k) => mesh.byKind[k]).map((object): RawInput => ({ object, origin: { source: 'demo', file: 'mesh' } }));
    const store = new Store({ debounceMs: 1_000_000 });
    let loaded!: () => void;
    const sourcesLoaded = new Promise<void>((r) => (loaded = r));
    const plane = createXdsPlane(store, DEFAULT_OPTIONS, { warmup: true, sourcesLoaded });
    expect(await plane.warmup.settled()).toMatchObject({ state: 'done', scopes: 0 }); // the empty first snapshot
    store.replace(
      't',
      objects.filter((o) => o.object.kind !== 'Service'),
    ); // pods first: no scope has a service yet
    store.flush();
    await plane.warmup.settled();
    store.replace('t', objects); // the rest of the lists
    store.flush();
    loaded();
    await sourcesLoaded;
    expect(await plane.warmup.settled()).toMatchObject({ state: 'done', version: store.snapshot().version, scopes: 4 });
    await plane.close();
    store.close();
  });

  it('start-up ends STARTUP_MS after the sources loaded even if every run was cut short (a live cluster churning)', async () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object): RawInput => ({ object, origin: { source: 'demo', file: 'mesh' } }));
    const store = storeOf(base);
    let clock = 0;
    const warm = new ScopeWarmup(
      new SharedResourceCache(),
      () => store.snapshot(),
      DEFAULT_OPTIONS,
      true,
      () => clock,
    );
    warm.loadingUntil(Promise.resolve(), () => 0);
    await Promise.resolve();
    for (let w = 1; w <= 3; w++) {
      store.upsert('t', { object: withVsWeight(mesh, 50 + w)[0]!, origin: { source: 'demo', file: 'mesh' } });
      store.flush();
      warm.changed(0); // each change cuts the run short and starts another
      expect(warm.state()).toMatchObject({ state: 'warming', startup: true });
    }
    clock = STARTUP_MS + 1;
    expect(warm.state().startup).toBe(false); // readiness no longer waits (api/debug.ts healthz)
    warm.changed(0);
    expect(warm.state().state).toBe('stopped'); // and changes are left to the pushes
    store.close();
  });

  it('a closed plane starts no warm-up, not even when its sources settle after close()', async () => {
    const store = storeOf(inputs(40, 4));
    let loaded!: () => void;
    const sourcesLoaded = new Promise<void>((r) => (loaded = r));
    const plane = createXdsPlane(store, DEFAULT_OPTIONS, { warmup: true, sourcesLoaded });
    await plane.close();
    loaded();
    await sourcesLoaded;
    await new Promise((r) => setImmediate(r));
    expect(plane.warmup.state().state).toBe('stopped');
    expect(plane.cache.stats().scopesWarmed).toBe(0);
    store.close();
  });

  it('does nothing when not enabled (the plane runs it only when asked: the runtime and `MESHSCOPE_XDS_WARMUP`)', async () => {
    const store = storeOf(inputs(40, 4));
    const plane = createXdsPlane(store, DEFAULT_OPTIONS);
    expect(await plane.warmup.settled()).toMatchObject({ state: 'off', scopes: 0 });
    expect(plane.cache.stats().scopesWarmed).toBe(0);
    await plane.close();
    const on = createXdsPlane(store, DEFAULT_OPTIONS, { warmup: true });
    expect(await on.warmup.settled()).toMatchObject({ state: 'done', scopes: 4 });
    await on.close();
    store.close();
  });
});
