// Encoded-resource cache: each EncodedResource is wrapped once into its wire forms (its Delta `resources` entry,
// whose google.protobuf.Any is also SotW's resource item: wire.ts encodeResourceWire), shared by every stream that sends it.
// Keyed weakly by the EncodedResource object (which the encoder produces once per content): the bytes live
// exactly as long as some translation still holds the resource, so nothing here outlives the clients and
// cache entries that used it. A second key on (type, name, hash) makes equal content from a fresh object
// reuse the bytes while they are alive (weakly held too: a dead entry's key is dropped when it is collected).
import type { EncodedResource } from '../envoy/encode';
import { sortByKey } from '../lib/compare';
import { encodeResourceWire, type ResourceWire } from './wire';
import { DeltaFreshResponses } from './deltaFresh';

/** Per-resource version on the wire (Delta): the content hash (sha256 hex, shortened). */
export const resourceVersion = (r: EncodedResource): string => r.hash.slice(0, 16);

/**
 * A resource's wire forms (wire.ts ResourceWire: the Delta `resources` entry, its Any a view into it) and its version.
 * A server that only serves SotW holds each resource's version and name bytes too (some 20 bytes and the name).
 */
export interface DeltaEntry {
  version: string;
  /** The Delta `resources` entry (field 2 of DeltaDiscoveryResponse). */
  bytes: Uint8Array;
  /** The Any inside it (a DiscoveryResponse's `resources` item). */
  any: Uint8Array;
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
  /** First responses shared by the Delta streams that asked the same (deltaFresh.ts). */
  readonly deltaFresh: DeltaFreshResponses = new DeltaFreshResponses((r) => this.deltaEntry(r).bytes);
  private byObject = new WeakMap<EncodedResource, DeltaEntry>();
  private byHash = new Map<string, WeakRef<DeltaEntry>>();
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
    return this.deltaEntry(r).any;
  }

  /**
   * The wire forms of `r` (its Delta `resources` entry, with the Any inside it), encoded once per resource object,
   * and per content while some object of it is alive: both protocols' streams share one buffer per resource.
   */
  deltaEntry(r: EncodedResource): DeltaEntry {
    const hit = this.byObject.get(r);
    if (hit) return hit;
    const key = `${r.typeUrl}\n${r.name}\n${r.hash}`;
    let e = this.byHash.get(key)?.deref();
    if (!e) {
      const version = resourceVersion(r);
      const wire: ResourceWire = encodeResourceWire(r.name, version, r.typeUrl, r.bytes);
      e = { version, bytes: wire.entry, any: wire.any };
      if (this.byHash.size >= this.maxEntries) {
        // Bounded: drop the oldest entry (Map keeps insertion order).
        const oldest = this.byHash.keys().next();
        if (!oldest.done) this.byHash.delete(oldest.value);
      }
      this.byHash.set(key, new WeakRef(e));
      this.gone.register(e, key);
    }
    this.byObject.set(r, e);
    return e;
  }

  /** Wraps resources ahead of their first stream (the xDS plane's warm-up: a scope part's resources). */
  prewrap(rs: Iterable<EncodedResource>): void {
    for (const r of rs) this.deltaEntry(r);
  }

  /** Contents wrapped and still held by some live resource. */
  get size(): number {
    let n = 0;
    for (const ref of this.byHash.values()) if (ref.deref()) n++;
    return n;
  }
}
