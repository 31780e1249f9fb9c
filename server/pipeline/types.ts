// What the pipeline produces per proxy: translated, encoded Envoy resources (and the cache of them).
// Its own file so the encoder (encodeTable.ts) and the cache front (proxyResources.ts) share it without
// importing each other.
import type { EncodedResource } from '../envoy/encode';
import type { LoadError, ProxyModel } from '../model/mesh';
import type { RouteProvenance } from '../translate/types';
import type { BoundedCache } from './cache';

export interface ProxyResources {
  proxy: ProxyModel;
  /** The snapshot version these resources were built from. */
  version: number;
  listeners: EncodedResource[];
  routes: EncodedResource[];
  clusters: EncodedResource[];
  endpoints: EncodedResource[];
  /** ztunnel's WDS Addresses and Authorizations (ztunnel kinds; absent or empty for Envoy kinds). */
  addresses?: EncodedResource[];
  authorizations?: EncodedResource[];
  /** Translation problems plus any resource the encoder rejected (a translator bug, shown, not thrown). */
  errors: LoadError[];
  /** Which VirtualService rule produced each route (translation's ResourceTable.provenance, as is). */
  provenance: readonly RouteProvenance[];
}

export type ResourceCache = BoundedCache<ProxyResources>;
