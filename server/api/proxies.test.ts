// /api/proxies at scale: the list never translates every proxy of a large mesh; counts come from the cache,
// from eager computation on small meshes, or from `?counts=` for the rows the UI shows.
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { createCache } from '../pipeline/cache';
import { proxyResources, resourceCacheKey, type ProxyResources } from '../pipeline/proxyResources';
import { countProxies, EAGER_COUNTS_LIMIT, listProxies, MAX_COUNT_IDS, proxiesHandler, proxyCounts } from './proxies';
import type { ApiContext } from './types';

const small = buildSnapshot(generateMesh({ services: 3, namespaces: 1 }), { version: 7 });
// 60 services × 2 Deployments = 120 proxies: above the eager limit.
const large = buildSnapshot(generateMesh({ services: 60, namespaces: 2 }), { version: 9 });

describe('listProxies', () => {
  it('small meshes: every proxy has counts equal to its encoded resources', () => {
    const res = listProxies({ snapshot: small, options: DEFAULT_OPTIONS });
    expect(res.body.countsComplete).toBe(true);
    for (const p of res.body.proxies) {
      const r = proxyResources(small, p.id, DEFAULT_OPTIONS)!;
      expect(p.counts).toEqual({
        listeners: r.listeners.length,
        routes: r.routes.length,
        clusters: r.clusters.length,
        endpoints: r.endpoints.length,
      });
      expect(p.errors).toBe(r.errors.length);
    }
  });

  it('large meshes: translates nothing — counts only for proxies whose resources are already cached', () => {
    expect(large.proxies.length).toBeGreaterThan(EAGER_COUNTS_LIMIT);
    const cache = createCache<ProxyResources>(8);
    const id = large.proxies[5]!.id;
    proxyResources(large, id, DEFAULT_OPTIONS, cache);
    const ctx: ApiContext = { snapshot: large, options: DEFAULT_OPTIONS, cache };
    const res = listProxies(ctx);
    expect(res.body.countsComplete).toBe(false);
    expect(res.body.proxies).toHaveLength(large.proxies.length);
    expect(res.body.proxies.filter((p) => p.counts).map((p) => p.id)).toEqual([id]);
    // Nothing new was put in the cache: the list did not translate.
    expect(cache.size).toBe(1);
    expect(cache.get(resourceCacheKey(large.version + 1, id, DEFAULT_OPTIONS))).toBeUndefined();
  });
});

describe('?counts=ids', () => {
  const ctx: ApiContext = { snapshot: large, options: DEFAULT_OPTIONS };

  it('computes the counts of the ids asked for, equal to the encoded resources (no encoder rejections here)', () => {
    const ids = large.proxies.slice(0, 3).map((p) => p.id);
    const res = proxiesHandler(ctx, new URLSearchParams({ counts: [...ids, 'unknown.x'].join(',') }));
    expect(res.status).toBe(200);
    const body = res.body as { version: number; counts: Record<string, unknown> };
    expect(body.version).toBe(9);
    expect(Object.keys(body.counts).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const r = proxyResources(large, id, DEFAULT_OPTIONS)!;
      expect(body.counts[id]).toEqual({
        counts: { listeners: r.listeners.length, routes: r.routes.length, clusters: r.clusters.length, endpoints: r.endpoints.length },
        errors: r.errors.length,
      });
    }
  });

  it('bounds the work per request and rejects an empty list', () => {
    expect(countProxies(ctx, '').status).toBe(400);
    const many = large.proxies
      .slice(0, MAX_COUNT_IDS + 1)
      .map((p) => p.id)
      .join(',');
    expect(countProxies(ctx, many).status).toBe(400);
    expect(proxyCounts(ctx, 'nope.nowhere')).toBeUndefined();
  });
});
