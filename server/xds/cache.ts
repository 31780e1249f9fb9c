// Encoded-resource cache: each EncodedResource is wrapped into its google.protobuf.Any bytes once (and, for
// Delta, into its `resources` entry once per version), shared by every stream that sends it.
// Keyed weakly by the EncodedResource object (which the encoder produces once per content): the bytes live
// exactly as long as some translation still holds the resource, so nothing here outlives the clients and
// cache entries that used it. A second key on (type, name, hash) makes equal content from a fresh object
// reuse the bytes while they are alive (weakly held too: a dead entry's key is dropped when it is collected).
import type { EncodedResource } from '../envoy/encode';
import { sortByKey } from '../lib/compare';
import { encodeAny, encodeDeltaResourceEntry } from './wire';

/** Per-resource version on the wire (Delta): the content hash (sha256 hex, shortened). */
export const resourceVersion = (r: EncodedResource): string => r.hash.slice(0, 16);

/** A resource's Delta `resources` entry (field 2 of DeltaDiscoveryResponse) and its version. */
export interface DeltaEntry {
  version: string;
  bytes: Uint8Array;
}

type ResourceMap = ReadonlyMap<string, EncodedResource>;

/**
 * The difference between two served maps of one type, computed once and shared by every wildcard Delta stream that
 * was in sync with the first (ztunnel's resend-only-changes: 100 streams, one O(resources) walk per change).
 */
export class DeltaDiffs {
  private readonly last = new WeakMap<ResourceMap, { to: ResourceMap; resources: EncodedResource[]; removed: string[] }>();
  diff(from: ResourceMap, to: ResourceMap): { resources: EncodedResource[]; removed: string[] } {
    const hit = this.last.get(from);
    if (hit && hit.to === to) return hit;
    const resources: EncodedResource[] = [];
    for (const [n, r] of to) {
      const old = from.get(n);
      if (old !== r && (old === undefined || resourceVersion(old) !== resourceVersion(r))) resources.push(r);
    }
    const removed: string[] = [];
    for (const n of from.keys()) if (!to.has(n)) removed.push(n);
    sortByKey(resources, (r) => r.name);
    removed.sort();
    const out = { to, resources, removed };
    this.last.set(from, out);
    return out;
  }
}

export class AnyCache {
  /** Diffs between served maps shared by the Delta streams (delta.ts). */
  readonly deltaDiffs = new DeltaDiffs();
  private byObject = new WeakMap<EncodedResource, Uint8Array>();
  private deltaByObject = new WeakMap<EncodedResource, DeltaEntry>();
  private byHash = new Map<string, WeakRef<Uint8Array>>();
  private readonly gone = new FinalizationRegistry<string>((key) => {
    const ref = this.byHash.get(key);
    if (ref && ref.deref() === undefined) this.byHash.delete(key);
  });
  private readonly maxEntries: number;

  constructor(maxEntries = 50_000) {
    this.maxEntries = maxEntries;
  }

  /** The Any bytes of `r` (type_url = r.typeUrl, value = r.bytes). */
  any(r: EncodedResource): Uint8Array {
    const hit = this.byObject.get(r);
    if (hit) return hit;
    const key = `${r.typeUrl}\n${r.name}\n${r.hash}`;
    let bytes = this.byHash.get(key)?.deref();
    if (!bytes) {
      bytes = encodeAny(r.typeUrl, r.bytes);
      if (this.byHash.size >= this.maxEntries) {
        // Bounded: drop the oldest entry (Map keeps insertion order).
        const oldest = this.byHash.keys().next();
        if (!oldest.done) this.byHash.delete(oldest.value);
      }
      this.byHash.set(key, new WeakRef(bytes));
      this.gone.register(bytes, key);
    }
    this.byObject.set(r, bytes);
    return bytes;
  }

  /** The Delta `resources` entry of `r` (version, Any, name), encoded once per resource object. */
  deltaEntry(r: EncodedResource): DeltaEntry {
    let e = this.deltaByObject.get(r);
    if (!e) {
      const version = resourceVersion(r);
      e = { version, bytes: encodeDeltaResourceEntry(r.name, version, this.any(r)) };
      this.deltaByObject.set(r, e);
    }
    return e;
  }

  /** Contents wrapped and still held by some live resource. */
  get size(): number {
    let n = 0;
    for (const ref of this.byHash.values()) if (ref.deref()) n++;
    return n;
  }
}
