// Helpers of the pipeline's sharing property tests (sharing.property.test.ts, encodeTemplate.property.test.ts):
// a generated mesh's objects as a snapshot, what a proxy is sent and told, and a proxy's resources built alone.
import type fc from 'fast-check';
import { expect } from 'vitest';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { RawInput, RawObject } from '../sources/types';
import { encodeTable } from './encodeTable';
import { resourcesDigest } from './proxyResources';
import { SharedResourceCache } from './sharedResources';
import { buildProxyTable } from './stages';
import type { ProxyResources } from './types';

/** Generated objects as one snapshot (version 1), each its own document of one file. */
export const snapshotOfObjects = (objects: readonly RawObject[]): MeshSnapshot =>
  buildSnapshot(
    objects.map((object, doc): RawInput => ({ object, origin: { source: 'demo', file: 'generated', doc } })),
    { version: 1 },
  );

/** What a proxy is sent and told: every resource's bytes (by hash), errors, provenance. */
export const fingerprint = (r: ProxyResources) => ({
  digest: resourcesDigest(r),
  errors: JSON.stringify(r.errors),
  provenance: JSON.stringify(r.provenance),
});

/** What the pipeline serves a proxy built alone: translation, the EnvoyFilter stage, encoding. */
export const alone = (snap: MeshSnapshot, p: ProxyModel): ProxyResources =>
  encodeTable(p, snap.version, buildProxyTable(snap, p, DEFAULT_OPTIONS));

/**
 * Serves every proxy of `snap` through one fresh SharedResourceCache in the order `rand` gives, checking each against
 * its own build (`alone`) with vitest's `expect`; returns the cache for the caller's "not vacuous" counts.
 */
export function serveInRandomOrder(snap: MeshSnapshot, rand: fc.Stream<number>): SharedResourceCache {
  const order = [...snap.proxies].map((p) => ({ p, k: rand.next().value as number })).sort((x, y) => x.k - y.k);
  const cache = new SharedResourceCache();
  for (const { p } of order) {
    const shared = cache.resources(snap, p, DEFAULT_OPTIONS, () => buildProxyTable(snap, p, DEFAULT_OPTIONS));
    expect(shared.proxy, p.id).toBe(p);
    expect(fingerprint(shared), p.id).toEqual(fingerprint(alone(snap, p)));
  }
  return cache;
}
