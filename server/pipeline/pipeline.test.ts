// proxyResources / configDumpFor / diffProxies on Istio's Bookinfo manifests, loaded for real.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { TYPE } from '../envoy/typeUrls';
import { proxyForNode as proxyForClient } from '../model/proxyIdentity';
import { createAdsGenerator } from './adsGenerator';
import { createCache } from './cache';
import { diffProxies } from '../impact/changes';
import { configDumpFor } from './configDump';
import { proxyResources, type ProxyResources } from './proxyResources';

const load = (version: number, ...paths: string[]) => {
  const r = loadPaths(paths);
  return buildSnapshot(r.inputs, { version, extraErrors: r.errors });
};

const snap = load(7, bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-80-20.yaml'));
const productpage = snap.proxies.find((p) => p.labels.app === 'productpage');

describe('proxyResources', () => {
  it('is undefined for a proxy the snapshot does not have', () => {
    expect(proxyResources(snap, 'nope.default')).toBeUndefined();
    expect(configDumpFor(snap, 'nope.default')).toBeUndefined();
  });

  it('encodes each resource once per (snapshot version, proxy, options): a cache hit is the same object', () => {
    expect(productpage).toBeDefined();
    const cache = createCache<ProxyResources>();
    const a = proxyResources(snap, productpage!.id, DEFAULT_OPTIONS, cache);
    const b = proxyResources(snap, productpage!.id, DEFAULT_OPTIONS, cache);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(a?.version).toBe(7);
    expect(a?.proxy.id).toBe(productpage!.id);
    // Different options are a different translation input, hence a different entry.
    const c = proxyResources(snap, productpage!.id, { ...DEFAULT_OPTIONS, outboundTrafficPolicy: 'REGISTRY_ONLY' }, cache);
    expect(c).not.toBe(a);
    expect(cache.size).toBe(2);
  });

  it('bounds the cache (least recently used goes first)', () => {
    const cache = createCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
  });
});

describe('configDumpFor (istiod /debug/config_dump shape, DESIGN.md §3)', () => {
  it('type all: one section per xDS type, each with the snapshot version', () => {
    const res = configDumpFor(snap, productpage!.id);
    const configs = (res?.dump.configs ?? []) as Array<Record<string, unknown>>;
    expect(configs.map((c) => c['@type'])).toEqual([
      'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
      'type.googleapis.com/envoy.admin.v3.ListenersConfigDump',
      'type.googleapis.com/envoy.admin.v3.RoutesConfigDump',
      'type.googleapis.com/envoy.admin.v3.EndpointsConfigDump',
    ]);
    for (const c of configs)
      for (const key of ['dynamic_active_clusters', 'dynamic_route_configs', 'dynamic_endpoint_configs'])
        for (const entry of (c[key] ?? []) as Array<Record<string, unknown>>) expect(entry.version_info).toBe('7');
  });

  it('--type selects one section', () => {
    for (const [type, dumpType] of [
      ['listeners', 'ListenersConfigDump'],
      ['routes', 'RoutesConfigDump'],
      ['clusters', 'ClustersConfigDump'],
      ['endpoints', 'EndpointsConfigDump'],
    ] as const) {
      const configs = (configDumpFor(snap, productpage!.id, { type })?.dump.configs ?? []) as Array<Record<string, unknown>>;
      expect(configs.map((c) => c['@type'])).toEqual([`type.googleapis.com/envoy.admin.v3.${dumpType}`]);
    }
  });
});

describe('diffProxies', () => {
  it('first sight: every proxy; same inputs again: none', () => {
    const first = diffProxies(undefined, snap, DEFAULT_OPTIONS);
    expect(first.changed).toEqual(snap.proxies.map((p) => p.id).sort());
    const again = diffProxies(
      first.digests,
      load(8, bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-80-20.yaml')),
      DEFAULT_OPTIONS,
    );
    expect(again.changed).toEqual([]);
  });

  it('a VirtualService edit changes every sidecar that imports its host (public by default: exportTo unset)', () => {
    const first = diffProxies(undefined, snap, DEFAULT_OPTIONS);
    // 80/20 → 50/50 v2/v3 rewrites route config 9080 of every sidecar: the reviews VS is visible mesh-wide.
    const shifted = load(10, bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-50-v3.yaml'));
    expect(diffProxies(first.digests, shifted, DEFAULT_OPTIONS).changed).toEqual(snap.proxies.map((p) => p.id).sort());
  });

  it('a proxy that disappears is reported as changed', () => {
    const first = diffProxies(undefined, snap, DEFAULT_OPTIONS);
    const empty = load(9, bookinfo('networking', 'virtual-service-reviews-80-20.yaml'));
    expect(diffProxies(first.digests, empty, DEFAULT_OPTIONS).changed).toEqual(snap.proxies.map((p) => p.id).sort());
  });
});

describe('proxyForClient (istiod getPodByProxy / podKeyByProxy)', () => {
  it('matches the POD.NS of the node id; by IP only with findPodByIp, and then by the first IP only', () => {
    const p = snap.proxies[1]!;
    expect(proxyForClient(snap, { proxyId: p.id, ips: [] })).toBe(p);
    // istiod podKeyByProxy: NAMESPACE metadata naming another namespace means no match by name.
    expect(proxyForClient(snap, { proxyId: p.id, ips: [], metadata: { NAMESPACE: 'elsewhere' } })).toBeUndefined();
    // ENABLE_PROXY_FIND_POD_BY_IP is off by default (istio/istio#56502): a known IP alone matches nothing.
    expect(proxyForClient(snap, { proxyId: 'unknown-pod.default', ips: [p.ips[0]!] })).toBeUndefined();
    expect(proxyForClient(snap, { proxyId: 'unknown-pod.default', ips: [p.ips[0]!] }, { findPodByIp: true })).toBe(p);
    expect(proxyForClient(snap, { proxyId: 'unknown-pod.default', ips: ['192.0.2.1', p.ips[0]!] }, { findPodByIp: true })).toBeUndefined();
  });

  it('the generator answers nothing for unknown clients and the proxy resources by type otherwise', () => {
    const gen = createAdsGenerator(() => snap, DEFAULT_OPTIONS);
    const base = { nodeId: 'x', labels: {}, metadata: {}, peer: '', flavour: 'envoy' as const };
    expect(gen.generate({ ...base, proxyId: 'nope.default', ips: [] })).toBeUndefined();
    const set = gen.generate({ ...base, proxyId: productpage!.id, ips: [] });
    expect(set?.version).toBe('7');
    // A sidecar is served CDS/EDS/LDS/RDS (istiod's Envoy generators); never ztunnel's WDS types.
    expect([...(set?.byType.keys() ?? [])].sort()).toEqual([TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route].sort());
  });
});
