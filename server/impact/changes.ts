// Which proxies' config changed between two snapshots. Two ways: `changeEvent` (what the live UI is told;
// affected.ts: from the changed objects, no translation, conservative) and `diffProxies` (exact: compare
// per-proxy digests of the encoded resources; translates every proxy — for small meshes and as the test
// oracle). Pure apart from the caller-owned cache.
import type { MeshEvent } from './types';
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import { affectedProxies } from './affected';
import { narrowedImpact } from './endpointScope';
import { TYPE } from '../envoy/typeUrls';
import type { Store, StoreChange } from '../sources/store';
import type { AdsServer } from '../xds/server';
import type { PushRequest } from '../xds/types';
import { proxyResources, resourcesDigest, type ResourceCache } from '../pipeline/proxyResources';

export interface ProxyDigests {
  version: number;
  byProxy: ReadonlyMap<string, string>;
}

export interface ProxyChanges {
  digests: ProxyDigests;
  /** Proxies added, removed, or whose resources changed; sorted. */
  changed: string[];
}

export function proxyDigests(snapshot: MeshSnapshot, options: TranslateOptions, cache?: ResourceCache): ProxyDigests {
  const byProxy = new Map<string, string>();
  for (const p of snapshot.proxies) {
    const r = proxyResources(snapshot, p.id, options, cache);
    if (r) byProxy.set(p.id, resourcesDigest(r));
  }
  return { version: snapshot.version, byProxy };
}

export function diffProxies(
  prev: ProxyDigests | undefined,
  snapshot: MeshSnapshot,
  options: TranslateOptions,
  cache?: ResourceCache,
): ProxyChanges {
  const digests = proxyDigests(snapshot, options, cache);
  const changed = new Set<string>();
  for (const [id, d] of digests.byProxy) if (prev?.byProxy.get(id) !== d) changed.add(id);
  for (const id of prev?.byProxy.keys() ?? []) if (!digests.byProxy.has(id)) changed.add(id);
  return { digests, changed: [...changed].sort() };
}

/** Above this many proxies, an event that reaches every proxy says `all` instead of listing them. */
export const LIST_ALL_LIMIT = 200;

/**
 * The SSE event for a store change (prev → next): the proxies it may have changed and the types, without
 * translating any proxy. `prev` undefined (no earlier snapshot known) reaches every proxy.
 */
export function changeEvent(
  prev: MeshSnapshot | undefined,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
  options: TranslateOptions,
): MeshEvent {
  const a = prev ? narrowedImpact(prev, next, change, options).affected : affectedProxies(prev, next, change, options);
  const compact = a.all && a.proxies.length > LIST_ALL_LIMIT;
  return {
    version: next.version,
    proxies: compact ? [] : a.proxies,
    ...(a.all ? { all: true } : {}),
    types: a.types,
    endpointsOnly: change.endpointsOnly,
    errors: next.errors.length,
  };
}

/** The types an endpoint-only change may change: EDS for Envoys, ztunnel's Address and Authorization. */
export const ENDPOINT_CHANGE_TYPES = [TYPE.endpoint, TYPE.address, TYPE.authorization] as const;

/** What a store change asks of the ADS server (istiod PushRequest): EDS only for endpoint-only changes. */
export function pushRequestFor(change: Pick<StoreChange, 'version' | 'endpointsOnly' | 'changed'>): PushRequest {
  const what = change.changed.length === 1 ? change.changed[0] : `${change.changed.length} objects`;
  // ztunnels watch only WDS (a pod's IP or readiness is in its Workload): they get their Address deltas too.
  if (change.endpointsOnly) return { proxies: 'all', types: new Set(ENDPOINT_CHANGE_TYPES), reason: `endpoints changed (${what})` };
  return { proxies: 'all', reason: `config changed (${what})` };
}

/**
 * Wires a store to an ADS server: every new snapshot requests a (debounced, merged) push. Which
 * connections then get bytes is decided per connection by content: a connection whose generated resources
 * did not change for a type is sent nothing for it, so only proxies whose view changed receive resources.
 * Returns the unsubscribe function.
 */
export function connectStoreToAds(store: Pick<Store, 'onChange'>, ads: Pick<AdsServer, 'push'>): () => void {
  return store.onChange((_snap, change) => ads.push(pushRequestFor(change)));
}
