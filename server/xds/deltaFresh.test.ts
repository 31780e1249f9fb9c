// A Delta stream's first response of a type, shared by the streams that asked the same (deltaFresh.ts), must be what
// the xDS incremental protocol says for a client holding nothing — every subscribed resource served (all of a
// wildcard type's on an empty first LDS/CDS request, or on "*"), and the subscribed names not served in
// removed_resources (envoy api docs "Incremental xDS"; istiod delta.go pushDeltaXds: removed = subscribed −
// generated) — and sharing it must never let one stream's later subscription change reach another stream.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EncodedResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { AnyCache } from './cache';
import { deltaChanges } from './delta';
import { WILDCARD_TYPES } from './shouldRespond';
import { edsCluster, loadAssignment } from './testing/fixtures';
import { SIDECAR, startHarness, type Harness } from './testing/harness';
import type { ResourceSet } from './types';

const res = (typeUrl: string, name: string, content: string): EncodedResource =>
  ({ typeUrl, name, bytes: new TextEncoder().encode(content), hash: content.padEnd(64, '0') }) as unknown as EncodedResource;

describe('DeltaFreshResponses', () => {
  it('a first response equals the per-stream walk with nothing known, for any map, type and subscribe list', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'B', '*', 'outbound|80||x', 'outbound|9080||x', 'z');
    fc.assert(
      fc.property(
        fc.constantFrom(TYPE.cluster, TYPE.listener, TYPE.endpoint, TYPE.route),
        fc.uniqueArray(fc.tuple(name, fc.constantFrom('1', '2')), { selector: ([n]) => n, maxLength: 7 }),
        fc.array(name, { maxLength: 7 }),
        fc.boolean(),
        (typeUrl, served, subscribe, frozen) => {
          const all = new Map(served.filter(([n]) => n !== '*').map(([n, c]) => [n, res(typeUrl, n, c)]));
          const set = { version: 'v', byType: new Map([[typeUrl, all]]) } as unknown as ResourceSet;
          // The watch delta.ts made from a first request before this cache: wildcard on an empty first LDS/CDS
          // request or on "*", the names subscribed, and the same names as just subscribed.
          const names = new Set(subscribe.filter((n) => n !== '*'));
          const wildcard = subscribe.includes('*') || (WILDCARD_TYPES.has(typeUrl) && subscribe.length === 0);
          const walk = deltaChanges({ typeUrl, wildcard, names, known: new Map() }, set, names);
          const cache = new AnyCache();
          const list = frozen ? Object.freeze([...subscribe]) : [...subscribe];
          const s = cache.deltaFresh.subscription(typeUrl, list);
          expect(s.wildcard).toBe(wildcard);
          expect([...s.names]).toEqual([...names]);
          const r = cache.deltaFresh.response(all, s);
          expect(r.resources).toEqual(walk.resources);
          expect(r.removed).toEqual(walk.removed);
          expect(r.entries).toEqual(walk.resources.map((x) => cache.deltaEntry(x).bytes));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is made once per (map, shared list) and per (map, empty first request); any other list gets its own', () => {
    const cache = new AnyCache();
    const all = new Map([['a', res(TYPE.endpoint, 'a', '1')]]);
    const list = Object.freeze(['a', 'b']);
    const s = cache.deltaFresh.subscription(TYPE.endpoint, list);
    expect(cache.deltaFresh.subscription(TYPE.endpoint, list)).toBe(s);
    expect(cache.deltaFresh.response(all, s)).toBe(cache.deltaFresh.response(all, s));
    expect(cache.deltaFresh.response(all, s).removed).toEqual(['b']);
    // Another map (a new translation): made again from it.
    const next = new Map([['b', res(TYPE.endpoint, 'b', '2')]]);
    expect(cache.deltaFresh.response(next, s).resources.map((r) => r.name)).toEqual(['b']);
    expect(cache.deltaFresh.response(next, s).removed).toEqual(['a']);
    // The same list for another type: its own subscription (a wildcard type's rules differ).
    expect(cache.deltaFresh.subscription(TYPE.cluster, list)).not.toBe(s);
    const wild = cache.deltaFresh.subscription(TYPE.cluster, []);
    expect(wild).toBe(cache.deltaFresh.subscription(TYPE.cluster, []));
    expect(wild.wildcard).toBe(true);
    // An empty first EDS request is not a wildcard (only LDS / CDS are): its own subscription, named by nothing.
    const noEds = cache.deltaFresh.subscription(TYPE.endpoint, []);
    expect(noEds).not.toBe(wild);
    expect(noEds.wildcard).toBe(false);
    expect(cache.deltaFresh.response(all, noEds)).toEqual({ resources: [], removed: [], entries: [] });
    // No served map of the type: nothing kept, only the subscribed names removed.
    expect(cache.deltaFresh.response(undefined, s)).toEqual({ resources: [], removed: ['a', 'b'], entries: [] });
    expect(cache.deltaFresh.response(undefined, s)).not.toBe(cache.deltaFresh.response(undefined, s));
    // A list the decoder did not share (not frozen): nothing is kept for it.
    const own = cache.deltaFresh.subscription(TYPE.endpoint, ['a', 'b']);
    expect(own).not.toBe(cache.deltaFresh.subscription(TYPE.endpoint, ['a', 'b']));
    expect(cache.deltaFresh.response(all, own)).not.toBe(cache.deltaFresh.response(all, own));
    expect(cache.deltaFresh.response(all, own)).toEqual(cache.deltaFresh.response(all, s));
  });
});

// Two sidecars of one scope subscribe to the same EDS list (≥ 1 kB: the server's decoder shares it, requestNames.ts),
// so they share one subscription. One of them then subscribes to one more cluster and unsubscribes another: only its
// own stream changes (xDS incremental protocol: subscriptions are per stream).
describe('Delta streams sharing a first subscription', () => {
  const clusters = Array.from({ length: 40 }, (_, i) => `outbound|9080||reviews-${String(i).padStart(2, '0')}.bookinfo.svc.cluster.local`);
  const extra = 'outbound|9080||ratings.bookinfo.svc.cluster.local';
  const cla = (c: string, ip: string) => loadAssignment(c, [[ip, 9080]]);
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    h.gen.set('v1', [...[...clusters, extra].map((c) => edsCluster(c)), ...[...clusters, extra].map((c) => cla(c, '10.0.0.1'))]);
  });
  afterEach(async () => {
    await h.close();
  });

  it('a later subscribe/unsubscribe on one stream leaves the other stream subscribed as it asked', async () => {
    expect(clusters.join('').length).toBeGreaterThan(1024);
    const a = h.client.delta(SIDECAR);
    const b = h.client.delta(SIDECAR);
    const ra = await a.request({ typeUrl: TYPE.endpoint, subscribe: clusters });
    const rb = await b.request({ typeUrl: TYPE.endpoint, subscribe: clusters });
    expect(ra.resources.map((r) => r.name)).toEqual([...clusters].sort());
    expect(rb.resources.map((r) => r.name)).toEqual(ra.resources.map((r) => r.name));
    // b's first response is the one a's made (the decoder shared the list, and so the subscription).
    expect(h.server.stats().deltaFirstReused).toBe(1);
    a.ack(ra);
    b.ack(rb);
    // Stream a: one more cluster, one fewer.
    const ra2 = await a.request({ typeUrl: TYPE.endpoint, subscribe: [extra], unsubscribe: [clusters[0]!], responseNonce: ra.nonce });
    expect(ra2.resources.map((r) => r.name)).toEqual([extra]);
    a.ack(ra2);
    const subscribed = () =>
      h.server
        .connections()
        .map((c) => c.types.find((t) => t.typeUrl === TYPE.endpoint)?.subscribed)
        .map((s) => (Array.isArray(s) ? s.join(',') : s));
    await h.server.flush();
    expect(subscribed().sort()).toEqual([[...clusters.slice(1), extra].sort().join(','), [...clusters].sort().join(',')].sort());
    // The extra cluster and the unsubscribed one change: only a hears of the first, only b of the second.
    h.gen.set('v2', [
      ...[...clusters, extra].map((c) => edsCluster(c)),
      ...clusters.map((c, i) => cla(c, i === 0 ? '10.9.9.9' : '10.0.0.1')),
      cla(extra, '10.9.9.8'),
    ]);
    h.server.push({ proxies: 'all', reason: 'endpoints' });
    const [pa, pb] = await Promise.all([a.next(), b.next()]);
    expect(pa.resources.map((r) => r.name)).toEqual([extra]);
    expect(pb.resources.map((r) => r.name)).toEqual([clusters[0]]);
  });

  it('a first request that also unsubscribes is applied in order: the unsubscribed names are not served', async () => {
    // Rule: istiod delta.go deltaWatchedResources adds resource_names_subscribe, then deletes resource_names_unsubscribe.
    const a = h.client.delta(SIDECAR);
    const r = await a.request({ typeUrl: TYPE.endpoint, subscribe: clusters, unsubscribe: [clusters[1]!] });
    expect(r.resources.map((x) => x.name)).toEqual(clusters.filter((_, i) => i !== 1).sort());
    await h.server.flush();
    const sub = h.server.connections()[0]!.types.find((t) => t.typeUrl === TYPE.endpoint)?.subscribed;
    expect(sub).toEqual(clusters.filter((_, i) => i !== 1).sort());
  });
});
