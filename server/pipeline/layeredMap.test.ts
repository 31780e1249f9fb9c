// A pod's LDS / CDS map as a view over its scope's shared map and its own (layeredMap.ts) must read exactly as the
// Map of the merged list it stands for (adsGenerator.ts byName): the ADS server's SotW selection, Delta diffs and
// lookups by name (xds/prepared.ts, xds/delta.ts) see one or the other.
import { describe, expect, it } from 'vitest';
import { issueMesh, KINDS } from '../../bench/issueMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { createAdsGenerator } from './adsGenerator';
import type { EncodedResource } from '../envoy/encode';
import { LayeredMap } from './layeredMap';
import { SharedResourceCache } from './sharedResources';
import { TYPE } from '../model/xdsTypes';

const res = (name: string) =>
  ({ name, typeUrl: TYPE.cluster, bytes: new Uint8Array([1]), hash: name, json: {} }) as unknown as EncodedResource;
const byName = (list: readonly EncodedResource[]) => new Map(list.map((r) => [r.name, r]));

describe('LayeredMap', () => {
  it('reads as the Map of the merged list: get, has, size, and every iteration in the list order', () => {
    const shared = ['b', 'd', 'f'].map(res);
    const own = ['a', 'e'].map(res);
    const list = [own[0]!, shared[0]!, shared[1]!, own[1]!, shared[2]!];
    const m = new LayeredMap(list, byName(shared), byName(own));
    const plain = byName(list);
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f', 'g', '']) {
      expect(m.get(n), n).toBe(plain.get(n));
      expect(m.has(n), n).toBe(plain.has(n));
    }
    expect(m.size).toBe(plain.size);
    expect([...m]).toEqual([...plain]);
    expect([...m.entries()]).toEqual([...plain.entries()]);
    expect([...m.keys()]).toEqual([...plain.keys()]);
    expect([...m.values()]).toEqual([...plain.values()]);
    const seen: string[] = [];
    m.forEach((v, k, self) => {
      expect(self).toBe(m);
      expect(v.name).toBe(k);
      seen.push(k);
    });
    expect(seen).toEqual([...plain.keys()]);
  });

  it("the ADS generator serves each sidecar's LDS and CDS as a view over its scope's map, equal to its merged list's Map", () => {
    const mesh = issueMesh(40, 4);
    const snap = buildSnapshot(
      KINDS.flatMap((k) => mesh.byKind[k]).map((object, doc) => ({ object, origin: { source: 'demo' as const, doc } })),
      { version: 1 },
    );
    const cache = new SharedResourceCache();
    const gen = createAdsGenerator(() => snap, DEFAULT_OPTIONS, cache);
    const sidecars = snap.proxies.filter((p) => p.type === 'sidecar');
    let layered = 0;
    for (const p of sidecars) {
      const set = gen.generate({ nodeId: 'x', labels: {}, metadata: {}, peer: '', flavour: 'envoy', proxyId: p.id, ips: [] });
      expect(set, p.id).toBeDefined();
      const r = cache.peek(snap, p, DEFAULT_OPTIONS)!;
      for (const [type, list] of [
        [TYPE.listener, r.listeners],
        [TYPE.cluster, r.clusters],
      ] as const) {
        const m = set!.byType.get(type)!;
        if (m instanceof LayeredMap) layered++;
        expect([...m.entries()], `${p.id} ${type}`).toEqual([...byName(list).entries()]);
      }
    }
    // the scope's first pod seeds the part; every sidecar's lists are merged ones, so every map is a view
    expect(layered).toBe(2 * sidecars.length);
  });
});
