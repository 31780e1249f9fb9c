// Connects the ADS server to the pipeline: a connecting client → its proxy in the current snapshot
// (by `POD.NS` from the node id; by IP only as istiod's ENABLE_PROXY_FIND_POD_BY_IP; else a proxy made
// from its node metadata; the generator says which in ResourceSet.matchedBy) → the encoded
// resources for that proxy. Envoys get translateProxy's output; proxyless gRPC clients (flavour `grpc`)
// get istiod's grpcgen output for exactly the names they watch (server/translate/grpc).
import type { EncodedResource } from '../envoy/encode';
import { TYPE, type TypeUrl } from '../envoy/typeUrls';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { translateGrpc, type GrpcWatches } from '../translate/grpc';
import { translateProxy } from '../translate/index';
import type { ResourceTable } from '../translate/types';
import type { AdsGenerator, ClientInfo, MatchedBy, ResourceSet, Watches } from '../xds/types';
import { EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import { resourceCacheKey, type ProxyResources, type ResourceCache } from './proxyResources';

/** How a client may be matched to a registry proxy beyond its node id. */
export interface MatchOptions {
  /** istiod's ENABLE_PROXY_FIND_POD_BY_IP (off by default since istio/istio#56502). */
  findPodByIp?: boolean;
}

type MatchInput = Pick<ClientInfo, 'proxyId' | 'ips'> & Partial<Pick<ClientInfo, 'namespace' | 'metadata'>>;

/**
 * The registry proxy a client is, and how it was matched, as istiod finds a proxy's pod
 * (pilot/pkg/serviceregistry/kube/controller/pod.go getPodByProxy, util.go podKeyByProxy):
 * - by `POD.NAMESPACE` from the node id, unless the NAMESPACE metadata names another namespace;
 * - by IP only when `findPodByIp` is on, and then by the client's FIRST IP only: one proxy with it → that
 *   one; several → the first in the client's namespace; none there → no match.
 * Otherwise there is no registry match (the caller builds the proxy from the node metadata, as istiod's
 * GetProxyServiceTargetsFromMetadata does). meshscope differs in one way: a client that sends no
 * NAMESPACE metadata is still matched by name (istiod requires it; the namespace is in the id anyway).
 */
export function matchClient(
  snapshot: MeshSnapshot,
  client: MatchInput,
  opts: MatchOptions = {},
): { proxy: ProxyModel; by: MatchedBy } | undefined {
  const dot = client.proxyId.indexOf('.');
  const idNamespace = dot > 0 ? client.proxyId.slice(dot + 1) : undefined;
  const metaNamespace = client.metadata?.['NAMESPACE'];
  const nameAgrees = typeof metaNamespace !== 'string' || metaNamespace === '' || metaNamespace === idNamespace;
  const byId = nameAgrees ? snapshot.proxiesById.get(client.proxyId) : undefined;
  if (byId) return { proxy: byId, by: 'node id' };
  const ip = client.ips[0];
  if (!opts.findPodByIp || !ip) return undefined;
  const withIp = snapshot.proxies.filter((p) => p.ips.includes(ip));
  if (withIp.length === 1) return { proxy: withIp[0]!, by: 'ip' };
  const sameNs = withIp.find((p) => p.namespace === (client.namespace ?? idNamespace));
  return sameNs ? { proxy: sameNs, by: 'ip' } : undefined;
}

/** The registry proxy a client is (see matchClient). */
export function proxyForClient(snapshot: MeshSnapshot, client: MatchInput, opts: MatchOptions = {}): ProxyModel | undefined {
  return matchClient(snapshot, client, opts)?.proxy;
}

/**
 * A proxy for a client the registry does not know, from its node (istiod builds model.Proxy from the node
 * id and metadata alone): needs a namespace (NAMESPACE metadata or an Istio-shaped node id).
 */
export function proxyFromNode(client: ClientInfo): ProxyModel | undefined {
  if (!client.namespace) return undefined;
  const dot = client.proxyId.indexOf('.');
  const name = dot > 0 ? client.proxyId.slice(0, dot) : client.proxyId;
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(client.metadata)) if (typeof v === 'string') metadata[k] = v;
  return {
    id: client.proxyId,
    type: client.nodeType === 'router' ? 'router' : 'sidecar',
    name,
    namespace: client.namespace,
    labels: client.labels,
    ips: client.ips,
    locality: { region: client.locality?.region ?? '', zone: client.locality?.zone ?? '', subzone: client.locality?.subZone ?? '' },
    metadata,
  };
}

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
  options: TranslateOptions,
  cache?: ResourceCache,
  memo?: EncodeMemo,
  match: MatchOptions = {},
): ProxyResources | undefined {
  return resourcesFor(snap, client, matchClient(snap, client, match)?.proxy, watches, options, cache, memo);
}

/** clientResources for a client already matched (`known`: its registry proxy, if any). */
function resourcesFor(
  snap: MeshSnapshot,
  client: ClientInfo,
  known: ProxyModel | undefined,
  watches: Watches | undefined,
  options: TranslateOptions,
  cache?: ResourceCache,
  memo?: EncodeMemo,
): ProxyResources | undefined {
  const proxy = known ?? proxyFromNode(client);
  if (!proxy) return undefined;
  let key: string;
  let build: () => ResourceTable;
  if (client.flavour === 'grpc') {
    const w = grpcWatches(watches);
    key = `grpc\u0000${resourceCacheKey(snap.version, JSON.stringify(proxy), options)}\u0000${JSON.stringify(w)}`;
    build = () => translateGrpc(snap, proxy, w, options);
  } else {
    key = known
      ? resourceCacheKey(snap.version, known.id, options)
      : `node\u0000${resourceCacheKey(snap.version, JSON.stringify(proxy), options)}`;
    build = () => translateProxy(snap, proxy, options);
  }
  const hit = cache?.get(key);
  if (hit) return hit;
  const r = encodeTable(proxy, snap.version, translateSafely(proxy, build), memo);
  cache?.set(key, r);
  return r;
}

export function toResourceSet(r: ProxyResources, version: string): ResourceSet {
  const byType = new Map<TypeUrl, Map<string, EncodedResource>>([
    [TYPE.listener, byName(r.listeners)],
    [TYPE.route, byName(r.routes)],
    [TYPE.cluster, byName(r.clusters)],
    [TYPE.endpoint, byName(r.endpoints)],
  ]);
  return { version, byType };
}

export function createAdsGenerator(
  snapshot: () => MeshSnapshot,
  options: TranslateOptions,
  cache?: ResourceCache,
  match: MatchOptions = {},
): AdsGenerator {
  const memo = new EncodeMemo();
  return {
    generate(client: ClientInfo, watches?: Watches): ResourceSet | undefined {
      const snap = snapshot();
      const m = matchClient(snap, client, match);
      const r = resourcesFor(snap, client, m?.proxy, watches, options, cache, memo);
      if (!r) return undefined;
      const set = toResourceSet(r, String(snap.version));
      set.matchedBy = m?.by ?? 'node metadata';
      if (m) set.matchedProxy = m.proxy.id;
      return set;
    },
  };
}
