// Connects the ADS server to the pipeline: a connecting client → its proxy in the current snapshot
// (model/proxyIdentity matchNode: by `POD.NS` from the node id; by IP only as istiod's
// ENABLE_PROXY_FIND_POD_BY_IP; else a proxy made from its node metadata; ResourceSet.matchedBy says which) → the encoded
// resources for that proxy. Envoys get translateProxy's output; proxyless gRPC clients (flavour `grpc`)
// get istiod's grpcgen output for exactly the names they watch (server/translate/grpc).
import { LayeredMap, type ListLayers } from './layeredMap';
import type { EncodedResource } from '../envoy/encode';
import { TYPE, type TypeUrl } from '../envoy/typeUrls';
import { type MeshSnapshot, optionsOf, type ProxyModel, type TranslateOptions } from '../model/mesh';
import { matchNode, proxyFromNode, type MatchOptions } from '../model/proxyIdentity';
import { translateGrpc, type GrpcWatches } from '../translate/grpc';
import type { AdsGenerator, ClientInfo, ResourceSet, Watches } from '../xds/types';
import { EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import { generatorsOf } from './generators';
import { buildProxyTable } from './stages';
import { resourceCacheKey, type ProxyResources, type ResourceCache } from './proxyResources';
import { isSharedCache } from './sharedResources';

const byName = (list: readonly EncodedResource[]): Map<string, EncodedResource> => new Map(list.map((r) => [r.name, r]));

const namesOf = (watches: Watches | undefined, typeUrl: string): string[] => [...(watches?.get(typeUrl)?.names ?? [])].sort();

/** What a gRPC client watches. A wildcard is ignored: gRPC always subscribes by name. */
export function grpcWatches(watches: Watches | undefined): GrpcWatches {
  return {
    listeners: namesOf(watches, TYPE.listener),
    routes: namesOf(watches, TYPE.route),
    clusters: namesOf(watches, TYPE.cluster),
    endpoints: namesOf(watches, TYPE.endpoint),
  };
}

/**
 * Translate + encode for one client: grpcgen by watched names, or the Envoy translator. Cached by inputs in
 * `cache` (the registry-proxy entries are the ones proxyResources / config_dump use: same key, same shape).
 */
export function clientResources(
  snap: MeshSnapshot,
  client: ClientInfo,
  watches: Watches | undefined,
  options: TranslateOptions | undefined,
  cache?: ResourceCache,
  memo?: EncodeMemo,
  match: MatchOptions = {},
): ProxyResources | undefined {
  return resourcesFor(snap, client, matchNode(snap, client, match)?.proxy, watches, options, cache, memo);
}

/** clientResources for a client already matched (`known`: its registry proxy, if any). */
function resourcesFor(
  snap: MeshSnapshot,
  client: ClientInfo,
  known: ProxyModel | undefined,
  watches: Watches | undefined,
  override: TranslateOptions | undefined,
  cache?: ResourceCache,
  memo?: EncodeMemo,
): ProxyResources | undefined {
  const options = override ?? optionsOf(snap);
  const proxy = known ?? proxyFromNode(client);
  if (!proxy) return undefined;
  if (client.flavour === 'grpc') {
    const w = grpcWatches(watches);
    const key = `grpc\u0000${resourceCacheKey(snap.version, JSON.stringify(proxy), options)}\u0000${JSON.stringify(w)}`;
    const hit = cache?.get(key);
    if (hit) return hit;
    const r = encodeTable(
      proxy,
      snap.version,
      translateSafely(proxy, () => translateGrpc(snap, proxy, w, options)),
      memo,
    );
    cache?.set(key, r);
    return r;
  }
  const build = () => buildProxyTable(snap, proxy, options);
  // The runtime's cache: one translation per distinct set of inputs, carried across snapshots (sharedResources.ts).
  if (isSharedCache(cache)) return cache.resources(snap, proxy, options, () => buildProxyTable(snap, proxy, options, cache.memos), memo);
  const key = known
    ? resourceCacheKey(snap.version, known.id, options)
    : `node\u0000${resourceCacheKey(snap.version, JSON.stringify(proxy), options)}`;
  const hit = cache?.get(key);
  if (hit) return hit;
  const r = encodeTable(proxy, snap.version, translateSafely(proxy, build), memo);
  cache?.set(key, r);
  return r;
}
/**
 * Resource lists → maps by name, built once per list (the lists of one shared translation are the same arrays
 * for every proxy sharing it): every client of that translation gets the same map objects, which the ADS
 * server keys its shared responses by (xds/prepared.ts). Weak: a map lives as long as its list.
 */
export class ResourceSetCache {
  private readonly maps = new WeakMap<readonly EncodedResource[], ReadonlyMap<string, EncodedResource>>();
  /** `layersOf`: the halves of a list merged from a scope's shared list and a proxy's own (its map is a view over theirs). */
  constructor(private readonly layersOf: (list: readonly EncodedResource[]) => ListLayers | undefined = () => undefined) {}
  private map(list: readonly EncodedResource[]): ReadonlyMap<string, EncodedResource> {
    let m = this.maps.get(list);
    if (!m) {
      const layers = this.layersOf(list);
      m = layers ? new LayeredMap(list, this.map(layers.shared), byName(layers.own)) : byName(list);
      this.maps.set(list, m);
    }
    return m;
  }
  /** A new ResourceSet (callers may set its per-client fields) over the shared maps: the types the proxy's kind is served. */
  of(r: ProxyResources, version: string): ResourceSet {
    const byType = new Map<TypeUrl, ReadonlyMap<string, EncodedResource>>();
    for (const g of generatorsOf(r.proxy)) byType.set(g.typeUrl, this.map(r[g.list] ?? NONE));
    return { version, byType };
  }
}

const NONE: readonly EncodedResource[] = [];

/** `options` undefined: each snapshot's own (its mesh config's) options. */
export function createAdsGenerator(
  snapshot: () => MeshSnapshot,
  options: TranslateOptions | undefined,
  cache?: ResourceCache,
  match: MatchOptions = {},
): AdsGenerator {
  const memo = isSharedCache(cache) ? cache.memo : new EncodeMemo();
  const sets = new ResourceSetCache(isSharedCache(cache) ? (list) => cache.layersOf(list) : undefined);
  return {
    generate(client: ClientInfo, watches?: Watches): ResourceSet | undefined {
      const snap = snapshot();
      const m = matchNode(snap, client, match);
      const r = resourcesFor(snap, client, m?.proxy, watches, options, cache, memo);
      if (!r) return undefined;
      const set = sets.of(r, String(snap.version));
      set.matchedBy = m?.by ?? 'node metadata';
      if (m) set.matchedProxy = m.proxy.id;
      return set;
    },
  };
}
