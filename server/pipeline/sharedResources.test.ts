// The shared resource cache: bounded by bytes (not by a count), and a translation whose errors name the
// proxy (e.g. istiod's inbound listener conflict message, listeners/inbound.ts) is never served to another.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { RawObject } from '../sources/types';
import { translateProxy } from '../translate/index';
import { createSizedCache } from './cache';
import { resourcesSize, SharedResourceCache } from './sharedResources';

const pod = (name: string, ip: string): RawObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'a', labels: { app: 'x' } },
  spec: { containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const service = (name: string, port: string, number: number): RawObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'a' },
  spec: { selector: { app: 'x' }, ports: [{ name: port, port: number, targetPort: 8080 }] },
});
const snap = (objects: RawObject[]) =>
  buildSnapshot(
    objects.map((object, doc) => ({ object, origin: { source: 'demo' as const, file: 'test', doc } })),
    { version: 1 },
  );

describe('createSizedCache', () => {
  it('evicts least recently used entries until the sum of sizes fits; an entry larger than the bound is not kept', () => {
    const c = createSizedCache<string>(10, (v) => v.length);
    c.set('a', 'xxxx');
    c.set('b', 'xxxx');
    expect(c.get('a')).toBe('xxxx'); // a is now the most recent
    c.set('c', 'xxxx'); // 12 > 10: b goes
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c')]).toEqual(['xxxx', 'xxxx']);
    expect(c.total).toBe(8);
    c.set('huge', 'x'.repeat(11));
    expect(c.get('huge')).toBeUndefined();
    expect(c.total).toBe(8);
  });
});

describe('SharedResourceCache', () => {
  it('holds at most its byte bound, whatever the number of proxies', () => {
    const s = snap([...Array.from({ length: 6 }, (_, i) => pod(`p${i}`, `10.0.0.${i + 1}`)), service('s', 'http', 80)]);
    const probe = new SharedResourceCache();
    const one = resourcesSize(probe.resources(s, s.proxies[0]!, DEFAULT_OPTIONS, () => translateProxy(s, s.proxies[0]!, DEFAULT_OPTIONS)));
    // Distinct inputs per proxy: different labels.
    const distinct = snap([
      ...Array.from({ length: 6 }, (_, i) => ({
        ...pod(`p${i}`, `10.0.0.${i + 1}`),
        metadata: { name: `p${i}`, namespace: 'a', labels: { app: 'x', n: `${i}` } },
      })),
      service('s', 'http', 80),
    ]);
    const cache = new SharedResourceCache(Math.floor(one * 2.5));
    for (const p of distinct.proxies) cache.resources(distinct, p, DEFAULT_OPTIONS, () => translateProxy(distinct, p, DEFAULT_OPTIONS));
    // One scope (label `n` is read by no outbound selector): one full translation, five beside its outbound part.
    expect(cache.stats()).toMatchObject({ translations: 1, scopeShared: 5 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(cache.stats().maxBytes);
    // Their entries hold references to the shared resources and their own inbound ones: more fit than two full copies.
    expect(cache.size).toBeGreaterThan(2);
    // The bookkeeping of evicted entries goes with them at the next snapshot (no growth over time).
    cache.advance(1, 2, { all: false, proxies: new Set() });
    expect(cache.stats().tracked).toBe(cache.size);
  });

  it('the bookkeeping of entries the byte bound evicted goes when their proxies leave, with no snapshot change', () => {
    const distinct = snap([
      ...Array.from({ length: 6 }, (_, i) => ({
        ...pod(`p${i}`, `10.0.0.${i + 1}`),
        metadata: { name: `p${i}`, namespace: 'a', labels: { app: 'x', n: `${i}` } },
      })),
      service('s', 'http', 80),
    ]);
    const probe = new SharedResourceCache();
    const one = resourcesSize(
      probe.resources(distinct, distinct.proxies[0]!, DEFAULT_OPTIONS, () =>
        translateProxy(distinct, distinct.proxies[0]!, DEFAULT_OPTIONS),
      ),
    );
    const cache = new SharedResourceCache(Math.floor(one * 1.2));
    for (const p of distinct.proxies) cache.resources(distinct, p, DEFAULT_OPTIONS, () => translateProxy(distinct, p, DEFAULT_OPTIONS));
    expect(cache.size).toBeLessThan(distinct.proxies.length); // some entries were evicted while their proxies were connected
    // Proxies leaving take only their own users with them: the others' keys, evicted or not, still name their users.
    const [first, rest] = [distinct.proxies.slice(0, 3), distinct.proxies.slice(3)];
    cache.release(first.map((p) => p.id));
    expect(cache.stats().tracked).toBe(rest.length);
    cache.release(rest.map((p) => p.id));
    expect(cache.stats()).toMatchObject({ entries: 0, tracked: 0 });
  });

  it('a translation whose errors name the proxy is kept per proxy: each gets its own message', () => {
    // Two services on target port 8080 with different protocols: the inbound listener conflict names the proxy.
    const s = snap([pod('p0', '10.0.0.1'), pod('p1', '10.0.0.2'), service('web', 'http', 80), service('raw', 'tcp', 81)]);
    const cache = new SharedResourceCache();
    for (const id of ['p0.a', 'p1.a']) {
      const p = s.proxiesById.get(id)!;
      const r = cache.resources(s, p, DEFAULT_OPTIONS, () => translateProxy(s, p, DEFAULT_OPTIONS));
      const own = translateProxy(s, p, DEFAULT_OPTIONS).errors;
      expect(own.some((e) => JSON.stringify(e).includes(id))).toBe(true);
      expect(r.errors).toEqual(own);
    }
    expect(cache.stats().translations).toBe(2);
  });

  it('a scope part its connected proxies use is not lost to the byte bound: no pod of the scope is translated in full again', () => {
    // Two namespaces, 500 services visible to both: each scope's outbound part is estimated above the scope
    // parts' 1 MiB bound, so the bounded cache cannot keep it. istiod keys its cached clusters and routes by
    // SidecarScope (pilot/pkg/model/xds_cache.go), whatever the order its clients connect in.
    const svcs: RawObject[] = [];
    for (const ns of ['a', 'b'])
      for (let i = 0; i < 250; i++) svcs.push({ ...service(`s${i}`, 'http', 80), metadata: { name: `s${i}`, namespace: ns } });
    const pods = ['a', 'b'].flatMap((ns) =>
      Array.from({ length: 3 }, (_, i) => ({
        ...pod(`${ns}${i}`, `10.0.${ns === 'a' ? 1 : 2}.${i + 1}`),
        metadata: { name: `${ns}${i}`, namespace: ns, labels: { app: 'x', n: `${i}` } },
      })),
    );
    const s = snap([...svcs, ...pods]);
    const cache = new SharedResourceCache(1024 * 1024);
    // Round-robin over the namespaces, as a connect wave of distinct pods comes.
    const order = ['a0.a', 'b0.b', 'a1.a', 'b1.b', 'a2.a', 'b2.b'];
    const served = order.map((id) => {
      const p = s.proxiesById.get(id)!;
      return cache.resources(s, p, DEFAULT_OPTIONS, () => translateProxy(s, p, DEFAULT_OPTIONS));
    });
    expect(cache.stats()).toMatchObject({ translations: 2, scopeShared: 4, pinnedScopes: 2 });
    // The scope's pods share its outbound resources by reference and get exactly what a translation of their own gives.
    expect(served[2]!.routes).toBe(served[0]!.routes);
    for (const [i, id] of order.entries()) {
      const own = translateProxy(s, s.proxiesById.get(id)!, DEFAULT_OPTIONS);
      const names = own.clusters.map((c) => String(c.name));
      expect(served[i]!.clusters.map((c) => c.name)).toEqual(names.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    }
    // When their proxies are gone, so are the parts kept for them.
    cache.release(['a0.a', 'a1.a', 'a2.a']);
    expect(cache.stats().pinnedScopes).toBe(1);
    cache.release(['b0.b', 'b1.b', 'b2.b']);
    expect(cache.stats()).toMatchObject({ entries: 0, pinnedScopes: 0 });
  });
});
