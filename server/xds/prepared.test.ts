// SotW responses shared across streams (prepared.ts): streams served the same resources of one translation
// share one selection and its Any bytes; what each stream sends (those + its nonce) is byte for byte the
// DiscoveryResponse protobuf-es encodes from the same fields, with exactly the subscribed resources, sorted
// (the xDS SotW rule: every response carries the full subscribed set).
import { create, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { DiscoveryResponseSchema } from '../gen/envoy/service/discovery/v3/discovery_pb';
import type { EncodedResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { AnyCache } from './cache';
import { fingerprintOf, SotwResponseCache, subscriptionKey } from './prepared';
import { edsCluster } from './testing/fixtures';
import { encodeDiscoveryResponse } from './wire';
import { subscriptionOf } from './shouldRespond';

const clusters = ['c-b', 'c-a', 'c-c'].map((n) => edsCluster(n));
const byName = (rs: EncodedResource[]) => new Map(rs.map((r) => [r.name, r]));

/** protobuf-es' own encoding of the response a stream must get. */
const reference = (rs: EncodedResource[], version: string, nonce: string, cp: string) =>
  toBinary(
    DiscoveryResponseSchema,
    create(DiscoveryResponseSchema, {
      versionInfo: version,
      resources: rs.map((r) => ({ typeUrl: r.typeUrl, value: r.bytes })),
      typeUrl: TYPE.cluster,
      nonce,
      controlPlane: { identifier: cp },
    }),
  );

describe('SotwResponseCache', () => {
  it('the shared Any bytes + a stream nonce = the DiscoveryResponse protobuf-es encodes (wildcard: all, sorted by name)', () => {
    const cache = new SotwResponseCache(new AnyCache());
    const all = byName(clusters);
    const p = cache.prepare(all, TYPE.cluster, 'v7', true, new Set(), subscriptionKey(true, new Set()));
    const sorted = [...clusters].sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(p.resources.map((r) => r.name)).toEqual(['c-a', 'c-b', 'c-c']);
    expect(encodeDiscoveryResponse({ versionInfo: 'v7', anys: p.anys, typeUrl: TYPE.cluster, nonce: '42', controlPlane: 'cp' })).toEqual(
      reference(sorted, 'v7', '42', 'cp'),
    );
  });

  it('by name: only the subscribed names that exist', () => {
    const cache = new SotwResponseCache(new AnyCache());
    const names = new Set(['c-c', 'missing', 'c-a']);
    const p = cache.prepare(byName(clusters), TYPE.cluster, 'v1', false, names, subscriptionKey(false, names));
    expect(p.resources.map((r) => r.name)).toEqual(['c-a', 'c-c']);
    const expected = [clusters[1]!, clusters[2]!];
    expect(encodeDiscoveryResponse({ versionInfo: 'v1', anys: p.anys, typeUrl: TYPE.cluster, nonce: '1', controlPlane: 'cp' })).toEqual(
      reference(expected, 'v1', '1', 'cp'),
    );
  });

  it('the same map, type and subscription share one prepared response (any version); another type, list or map gets its own', () => {
    const cache = new SotwResponseCache(new AnyCache());
    const all = byName(clusters);
    const w = subscriptionKey(true, new Set());
    const a = cache.prepare(all, TYPE.cluster, 'v1', true, new Set(), w);
    expect(cache.prepare(all, TYPE.cluster, 'v1', true, new Set(), w)).toBe(a);
    // Another snapshot version with the same map: the same resources (version_info is written per response).
    expect(cache.prepare(all, TYPE.cluster, 'v2', true, new Set(), w)).toBe(a);
    expect(cache.prepare(all, TYPE.endpoint, 'v1', true, new Set(), w)).not.toBe(a);
    const one = new Set(['c-a']);
    expect(cache.prepare(all, TYPE.cluster, 'v1', false, one, subscriptionKey(false, one)).resources).toHaveLength(1);
    // Another translation's map with equal content: its own entry, equal bytes.
    const other = cache.prepare(byName(clusters), TYPE.cluster, 'v1', true, new Set(), w);
    expect(other).not.toBe(a);
    expect(other.anys).toEqual(a.anys);
    expect(other.fingerprint).toBe(a.fingerprint);
  });

  it('a shared (frozen) resource_names list: one subscription for every request naming it, equal to subscriptionOf', () => {
    // requestNames.ts hands the same frozen array to every request that named the same bytes (the streams of one
    // Sidecar scope ACK with one EDS list); the subscription it makes is istiod's (names, `*` = wildcard).
    const cache = new SotwResponseCache(new AnyCache());
    const list = Object.freeze(['c-b', 'c-a', 'c-b']);
    const a = cache.subscription(TYPE.endpoint, list);
    expect(cache.subscription(TYPE.endpoint, list)).toBe(a);
    expect({ wildcard: a.wildcard, names: a.names }).toEqual(subscriptionOf(TYPE.endpoint, list));
    expect(a.key).toBe(subscriptionKey(false, new Set(['c-b', 'c-a'])));
    const star = Object.freeze(['*', 'c-a']);
    expect(cache.subscription(TYPE.cluster, star)).toMatchObject({ wildcard: true, key: '*' });
    // A list of its own (not frozen: nobody else holds it) and the empty list get their own subscription.
    const own = ['c-b', 'c-a'];
    expect(cache.subscription(TYPE.endpoint, own)).not.toBe(cache.subscription(TYPE.endpoint, own));
    expect(cache.subscription(TYPE.cluster, Object.freeze([]))).toMatchObject({ wildcard: true, key: '*' });
    expect(cache.subscription(TYPE.endpoint, Object.freeze([]))).toMatchObject({ wildcard: false });
  });

  it('no resources of the type: an empty response with version and type', () => {
    const cache = new SotwResponseCache(new AnyCache());
    const p = cache.prepare(undefined, TYPE.cluster, 'v3', true, new Set(), '*');
    expect(p.resources).toEqual([]);
    expect(encodeDiscoveryResponse({ versionInfo: 'v3', anys: p.anys, typeUrl: TYPE.cluster, nonce: '5', controlPlane: 'cp' })).toEqual(
      reference([], 'v3', '5', 'cp'),
    );
  });

  it('what every stream keeps of a response and a subscription stays small however many resources they name', () => {
    // Each SotW stream keeps the fingerprint of what it was sent and its subscription key: at 5,000 services a
    // CDS list or an EDS subscription names ~750 clusters, and the joined names were ~100 kB per stream.
    const many = Array.from({ length: 800 }, (_, i) => edsCluster(`outbound|8080|v1|svc-${i}.ns-1.svc.cluster.local`));
    const names = new Set(many.map((r) => r.name));
    expect(fingerprintOf(many).length).toBeLessThanOrEqual(64);
    expect(subscriptionKey(false, names).length).toBeLessThanOrEqual(64);
    // Still a content fingerprint: one resource more, or another hash, is another fingerprint; the same, the same.
    expect(fingerprintOf(many.slice(1))).not.toBe(fingerprintOf(many));
    expect(fingerprintOf([{ ...many[0]!, hash: 'other' }, ...many.slice(1)])).not.toBe(fingerprintOf(many));
    expect(fingerprintOf([...many])).toBe(fingerprintOf(many));
    expect(subscriptionKey(false, new Set([...names].slice(1)))).not.toBe(subscriptionKey(false, names));
    expect(subscriptionKey(false, new Set())).not.toBe(subscriptionKey(true, new Set()));
  });
});
