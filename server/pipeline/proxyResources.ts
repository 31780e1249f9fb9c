// snapshot + proxy id → translated and encoded Envoy resources (what ADS serves, what config_dump prints).
// translateProxy is pure; encoding happens once per (snapshot version, proxy, options) through a cache
// the caller owns and passes in (a runtime keeps one; a CLI run makes one).
import { optionsOf, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import { encodeTable, translateSafely } from './encodeTable';
import { encodedOf } from './generators';
import { buildProxyTable } from './stages';
import { isSharedCache } from './sharedResources';
import type { ProxyResources, ResourceCache } from './types';

export type { ProxyResources, ResourceCache } from './types';

export const resourceCacheKey = (version: number, proxyId: string, options: TranslateOptions): string =>
  `${version}\u0000${proxyId}\u0000${JSON.stringify(options)}`;

/** Translate + encode one proxy; undefined when the snapshot has no proxy with that id. Never throws. */
export function proxyResources(
  snapshot: MeshSnapshot,
  proxyId: string,
  options: TranslateOptions = optionsOf(snapshot),
  cache?: ResourceCache,
): ProxyResources | undefined {
  const proxy = snapshot.proxiesById.get(proxyId);
  if (!proxy) return undefined;
  const build = () => buildProxyTable(snapshot, proxy, options);
  // The runtime's cache shares one translation among proxies with equal inputs (sharedResources.ts).
  if (isSharedCache(cache)) return cache.resources(snapshot, proxy, options, () => buildProxyTable(snapshot, proxy, options, cache.memos));
  const key = resourceCacheKey(snapshot.version, proxyId, options);
  const hit = cache?.get(key);
  if (hit) return hit;

  const result = encodeTable(proxy, snapshot.version, translateSafely(proxy, build));
  cache?.set(key, result);
  return result;
}

/** A digest of everything a proxy is sent: changes iff any resource's bytes change. */
export function resourcesDigest(r: ProxyResources): string {
  const parts: string[] = [];
  for (const e of encodedOf(r)) parts.push(`${e.typeUrl}/${e.name}/${e.hash}`);
  return parts.join('\n');
}
