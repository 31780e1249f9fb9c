// The push plane: scoped pushes and the cache carried across snapshots.
// 1. For every mutation of real meshes (affected.testing.ts), plus endpoint-only changes (a pod's IP), the
//    shared cache filled from the old snapshot and advanced by planChange serves every proxy of the new
//    snapshot exactly what translating it alone gives (carried entries and refreshed CLAs included).
// 2. On the wire (real gRPC, loopback): a VirtualService edit re-translates and pushes only the proxies of
//    the namespaces it reaches (istiod ProxyNeedsPush scoping); a pod IP change sends only EDS (istiod's
//    incremental EDS push, pilot/pkg/xds/eds.go) to the proxies that watch its service, rebuilding only
//    those CLAs, and the CLAs sent equal a full translation's.
import { afterEach, describe, expect, it } from 'vitest';
import { benchPod } from '../../bench/meshFiles';
import { generateMesh } from '../../bench/generateMesh';
import { issueMesh, KINDS, withPodIp, withVsWeight } from '../../bench/issueMesh';
import { TYPE } from '../envoy/typeUrls';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import { encodeTable } from '../pipeline/encodeTable';
import { resourcesDigest } from '../pipeline/proxyResources';
import { SharedResourceCache } from '../pipeline/sharedResources';
import { Store, type StoreChange } from '../sources/store';
import type { RawInput } from '../sources/types';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { translateProxy } from '../translate/index';
import { AdsTestClient, namesOf, type SotwTestStream } from '../xds/testing/adsTestClient';
import { mutations, storeTransition } from './affected.testing';
import { createXdsPlane, planChange, type XdsPlane } from './xdsPlane';

const fingerprint = (snap: MeshSnapshot, p: ProxyModel, cache?: SharedResourceCache) => {
  const build = () => translateProxy(snap, p, DEFAULT_OPTIONS);
  const r = cache ? cache.resources(snap, p, DEFAULT_OPTIONS, build) : encodeTable(p, snap.version, build());
  return { digest: resourcesDigest(r), errors: JSON.stringify(r.errors) };
};

const input = (object: RawInput['object'], file = 'test'): RawInput => ({ object, origin: { source: 'demo', file } });

/** base → base with `changed` upserted, through a real Store (how sources report one object's change). */
function upsertTransition(base: readonly RawInput[], changed: RawInput) {
  const store = new Store({ debounceMs: 1_000_000 });
  store.replace('t', base);
  store.flush();
  const prev = store.snapshot();
  let change: StoreChange = { version: prev.version, changed: [], endpointsOnly: false };
  store.onChange((_s, c) => (change = c));
  store.upsert('t', changed);
  store.flush();
  const next = store.snapshot();
  store.close();
  return { prev, next, change };
}

/** Every proxy of `next` through a cache filled from `prev` and advanced: equal to its own translation. */
function checkCarried(t: { prev: MeshSnapshot; next: MeshSnapshot; change: StoreChange }): {
  carried: number;
  refreshed: number;
  scopeShared: number;
  clas: number;
  inboundReused: number;
} {
  const cache = new SharedResourceCache();
  for (const p of t.prev.proxies) fingerprint(t.prev, p, cache);
  // Built for a proxy: translated in full, or its inbound beside its scope's outbound part (scopeSharing.ts).
  const built = () => cache.stats().translations + cache.stats().scopeShared;
  const before = built();
  const { advance } = planChange(t.prev, t.next, t.change, DEFAULT_OPTIONS);
  cache.advance(t.prev.version, t.next.version, advance);
  for (const p of t.next.proxies)
    expect(fingerprint(t.next, p, cache), `${p.id} after ${t.change.changed.join(' ')}`).toEqual(fingerprint(t.next, p));
  const s = cache.stats();
  return {
    carried: t.next.proxies.length - (built() - before),
    refreshed: s.endpointRefreshes,
    scopeShared: s.scopeShared,
    clas: s.clasRecomputed,
    inboundReused: s.inboundReused,
  };
}

function scopedMesh(services = 4): RawInput[] {
  return [...generateMesh({ services, namespaces: 2, scoped: true }), input(benchPod('10.199.0.1'))];
}

describe('the cache carried across snapshots serves what a fresh translation would', () => {
  it('every mutation of the scoped generated mesh (Sidecar per namespace, gateway, a bare pod)', () => {
    const base = scopedMesh(2);
    let carried = 0;
    let scopeShared = 0;
    let inboundReused = 0;
    for (const m of mutations(base, ['ns-0', 'ns-1', 'istio-system'])) {
      const r = checkCarried(storeTransition(base, m.inputs));
      carried += r.carried;
      scopeShared += r.scopeShared;
      inboundReused += r.inboundReused;
    }
    expect(carried).toBeGreaterThan(0); // not vacuous: many proxies were served a carried entry
    expect(scopeShared).toBeGreaterThan(0); // and distinct pods of one scope were served its outbound part (scopeSharing.ts)
    // and a VirtualService change re-served affected sidecars their inbound resources carried from before (inboundCarry.ts)
    expect(inboundReused).toBeGreaterThan(0);
  }, 300_000);

  it('Istio Bookinfo with its DestinationRules and VirtualServices, every object removed/edited/copied', () => {
    const r = loadPaths(
      [
        bookinfo('platform', 'bookinfo.yaml'),
        bookinfo('networking', 'destination-rule-all.yaml'),
        bookinfo('networking', 'virtual-service-reviews-80-20.yaml'),
      ],
      { namespace: 'default' },
    );
    expect(r.errors).toEqual([]);
    let inboundReused = 0;
    for (const m of mutations(r.inputs, ['default', 'istio-system']))
      inboundReused += checkCarried(storeTransition(r.inputs, m.inputs)).inboundReused;
    expect(inboundReused).toBeGreaterThan(0);
  }, 300_000);

  it('an endpoint-only change (a pod IP) refreshes only CLAs and equals a full translation', () => {
    const t = upsertTransition(scopedMesh(), input(benchPod('10.199.0.7')));
    expect(t.change.endpointsOnly).toBe(true);
    const r = checkCarried(t);
    expect(r.refreshed).toBeGreaterThan(0);
  });
});

describe('inbound resources carried across versions (inboundCarry.ts; istiod keys cached resources by the configs that shaped them)', () => {
  const ns0Sidecars = (t: { next: MeshSnapshot }) => t.next.proxies.filter((p) => p.type === 'sidecar' && p.namespace === 'ns-0').length;
  it("a VirtualService edit re-serves the affected sidecars' inbound resources built before, and each equals a fresh translation", () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object) => input(object, 'mesh'));
    const t = upsertTransition(base, input(withVsWeight(mesh, 70)[0]!, 'mesh'));
    expect(t.change.changed).toEqual(['networking.istio.io/v1/VirtualService/ns-0/svc-0']);
    const r = checkCarried(t);
    expect(r.inboundReused).toBe(ns0Sidecars(t)); // every affected sidecar of svc-0's namespace, none built again
  });
  // Both select a pod that is not its scope's first (svc-0's is): the scope's split check (scopeSharing.ts splitScope)
  // would catch a stale inbound of the first proxy, not of a later one.
  it('a PeerAuthentication (it shapes inbound listeners) carries nothing: every proxy equals a fresh translation', () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object) => input(object, 'mesh'));
    const strict = {
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'strict', namespace: 'ns-0' },
      spec: { selector: { matchLabels: { app: 'svc-4' } }, mtls: { mode: 'STRICT' } },
    };
    const t = upsertTransition(base, input(strict, 'pa'));
    const r = checkCarried(t);
    expect(r.inboundReused).toBe(0);
  });
  it('a DestinationRule traffic policy (inbound clusters read it) carries nothing: every proxy equals a fresh translation', () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object) => input(object, 'mesh'));
    const dr = structuredClone(mesh.byKind.DestinationRule[4]!) as { metadata: { namespace: string }; spec: Record<string, unknown> };
    expect(dr.metadata.namespace).toBe('ns-0');
    dr.spec.trafficPolicy = { connectionPool: { tcp: { maxConnections: 7 } } };
    const t = upsertTransition(base, input(dr as RawInput['object'], 'mesh'));
    const r = checkCarried(t);
    expect(r.inboundReused).toBe(0);
  });
});

describe('endpoint refresh per scope (EDS per cluster, as istiod caches EDS per cluster)', () => {
  it("a pod IP change in issue 24's mesh: each moved cluster's CLA is rebuilt once per scope, and every proxy equals a fresh translation", () => {
    const mesh = issueMesh(40, 4);
    const base = KINDS.flatMap((k) => mesh.byKind[k]).map((object) => input(object, 'mesh'));
    const t = upsertTransition(base, input(withPodIp(mesh, 1)[0]!, 'mesh'));
    expect(t.change.endpointsOnly).toBe(true);
    const r = checkCarried(t);
    // svc-0's pods moved: ns-0's sidecars (one scope) and the gateway refresh their 3 svc-0 CLAs; the sidecars' are
    // rebuilt once for the scope, not once per proxy.
    expect(r.refreshed).toBeGreaterThan(2);
    expect(r.clas).toBeLessThan(r.refreshed);
  });

  it('a run of pod moves and VS edits through one cache, a third of the proxies asked after each: all equal fresh translations', () => {
    // advance() carries unaffected entries without re-keying them (found on first use, up to 8 versions back, then
    // re-keyed at once): entries skipped for several changes, affected or stale in between, must still be right.
    const mesh = issueMesh(40, 4);
    const store = new Store({ debounceMs: 1_000_000 });
    store.replace(
      't',
      KINDS.flatMap((k) => mesh.byKind[k]).map((object) => input(object, 'mesh')),
    );
    store.flush();
    const cache = new SharedResourceCache();
    let prev = store.snapshot();
    for (const p of prev.proxies) fingerprint(prev, p, cache);
    let change: StoreChange | undefined;
    store.onChange((_s, c) => (change = c));
    const translated = () => cache.stats().translations + cache.stats().scopeShared;
    let carried = 0;
    for (let step = 0; step < 11; step++) {
      if (step % 3 === 2) store.upsert('t', input(withVsWeight(mesh, 60 - step)[0]!, 'mesh'));
      else store.upsert('t', input(withPodIp(mesh, step + 1)[0]!, 'mesh'));
      store.flush();
      const next = store.snapshot();
      cache.advance(prev.version, next.version, planChange(prev, next, change!, DEFAULT_OPTIONS).advance);
      const asked = next.proxies.filter((_p, i) => i % 3 === step % 3);
      const before = translated();
      for (const p of asked) expect(fingerprint(next, p, cache), `${p.id} at step ${step}`).toEqual(fingerprint(next, p));
      carried += asked.length - (translated() - before);
      prev = next;
    }
    for (const p of prev.proxies) expect(fingerprint(prev, p, cache), `${p.id} at the end`).toEqual(fingerprint(prev, p));
    store.close();
    expect(carried).toBeGreaterThan(0); // not vacuous: carried entries were served
  }, 120_000);
});

describe('scoped pushes on the wire (real ADS server and gRPC clients on loopback)', () => {
  let plane: XdsPlane | undefined;
  let client: AdsTestClient | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    client?.close();
    await plane?.close();
    store?.close();
  });

  async function sync(s: SotwTestStream): Promise<void> {
    const cds = await s.request({ typeUrl: TYPE.cluster }, 30_000);
    s.ack(cds);
    const eds = await s.request({ typeUrl: TYPE.endpoint, resourceNames: namesOf(cds).filter((n) => n.startsWith('outbound|')) }, 30_000);
    s.ack(eds);
    const lds = await s.request({ typeUrl: TYPE.listener }, 30_000);
    s.ack(lds);
    const rds = await s.request({ typeUrl: TYPE.route, resourceNames: ['8080'] }, 30_000);
    s.ack(rds);
  }

  it('a VS edit reaches only its namespace; a pod IP change sends only EDS, rebuilt for the moved service only', async () => {
    store = new Store({ debounceMs: 1_000_000 });
    store.replace('mesh', scopedMesh());
    store.flush();
    // The ADS debounce would hold pushes for ever: the store's debounce is the only one (pushNow).
    plane = createXdsPlane(store, DEFAULT_OPTIONS, { ads: { debounceMs: 1_000_000, maxDebounceMs: 1_000_000, log: () => undefined } });
    const port = await plane.ads.start(0, '127.0.0.1');
    client = new AdsTestClient(port);
    const snap = store.snapshot();
    const inNs = (ns: string) => snap.proxies.find((p) => p.namespace === ns && p.type === 'sidecar' && p.id !== 'svc-0-bench.ns-0')!;
    const a = inNs('ns-0');
    const b = inNs('ns-1');
    const sa = client.sotw({ id: `sidecar~10.0.0.1~${a.id}~ns-0.svc.cluster.local` });
    const sb = client.sotw({ id: `sidecar~10.0.0.2~${b.id}~ns-1.svc.cluster.local` });
    await Promise.all([sync(sa), sync(sb)]);
    await plane.ads.flush();
    const pushes = () => new Map(plane!.ads.connections().map((c) => [c.client.proxyId, c.pushCount]));
    const p0 = pushes();
    const t0 = plane.cache.stats().translations;
    const translated: string[] = [];
    const orig = plane.cache.resources.bind(plane.cache);
    plane.cache.resources = (sn, p, o, b, m) =>
      orig(
        sn,
        p,
        o,
        () => {
          translated.push(p.id);
          return b();
        },
        m,
      );

    // VirtualService svc-0 (ns-0, visible to ns-0 only through the Sidecars' egress ./*) edited.
    const vs = scopedMesh().find((i) => i.object.kind === 'VirtualService' && (i.object.metadata as { name: string }).name === 'svc-0')!;
    const spec = (vs.object as { spec: { http: { route: { weight: number }[] }[] } }).spec;
    spec.http[0]!.route[0]!.weight = 50;
    spec.http[0]!.route[1]!.weight = 50;
    store.upsert('mesh', vs);
    store.flush();
    expect(plane.ads.stats().debouncing).toBe(false); // dispatched at once, not debounced a second time
    await plane.ads.flush();
    const rds = await sa.next(30_000);
    expect(rds.typeUrl).toBe(TYPE.route);
    sa.ack(rds);
    const p1 = pushes();
    expect(p1.get(a.id)).toBe((p0.get(a.id) ?? 0) + 1);
    expect(p1.get(b.id)).toBe(p0.get(b.id)); // ns-1's proxy: not pushed, not even generated
    // Only ns-0's connected proxy was re-translated (Sidecar egress ./*: ns-1 imports nothing of ns-0).
    expect(translated).toEqual([a.id]);
    expect(plane.cache.stats().translations - t0).toBe(1);

    // The bare pod svc-0-bench (app svc-0, v1) moves to another IP: EDS only, to the proxy that watches svc-0.
    const t1 = plane.cache.stats();
    store.upsert('mesh', input(benchPod('10.199.0.9')));
    store.flush();
    await plane.ads.flush();
    const eds = await sa.next(30_000);
    expect(eds.typeUrl).toBe(TYPE.endpoint);
    sa.ack(eds);
    await plane.ads.flush();
    expect(sa.buffered).toBe(0); // nothing but EDS
    const t2 = plane.cache.stats();
    expect(t2.translations).toBe(t1.translations);
    expect(t2.endpointRefreshes).toBe(t1.endpointRefreshes + 1);
    // What was sent equals a full translation of the proxy over the new snapshot.
    const next = store.snapshot();
    const full = encodeTable(a, next.version, translateProxy(next, next.proxiesById.get(a.id)!, DEFAULT_OPTIONS));
    const sent = eds.resources.map((r) => Buffer.from(r.value).toString('hex')).sort();
    const names = namesOf(eds);
    expect(sent).toEqual(
      full.endpoints
        .filter((e) => names.includes(e.name))
        .map((e) => Buffer.from(e.bytes).toString('hex'))
        .sort(),
    );
    expect(JSON.stringify(full.endpoints.find((e) => e.name === 'outbound|8080|v1|svc-0.ns-0.svc.cluster.local')?.json)).toContain(
      '10.199.0.9',
    );
    expect(p1.get(b.id)).toBe(pushes().get(b.id));
  });
});
