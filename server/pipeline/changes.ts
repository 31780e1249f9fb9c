// Which proxies' config changed between two snapshots: compare per-proxy digests of the encoded
// resources (what a connected Envoy would be sent). Pure apart from the caller-owned cache.
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import { proxyResources, resourcesDigest, type ResourceCache } from './proxyResources';

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

export function diffProxies(prev: ProxyDigests | undefined, snapshot: MeshSnapshot, options: TranslateOptions, cache?: ResourceCache): ProxyChanges {
  const digests = proxyDigests(snapshot, options, cache);
  const changed = new Set<string>();
  for (const [id, d] of digests.byProxy) if (prev?.byProxy.get(id) !== d) changed.add(id);
  for (const id of prev?.byProxy.keys() ?? []) if (!digests.byProxy.has(id)) changed.add(id);
  return { digests, changed: [...changed].sort() };
}
