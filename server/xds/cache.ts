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

/**
 * A Delta first response's resources (sorted by name) and their `resources` entries as one byte run, shared by every
 * stream that asks for the same selection of one served map (a scope's 1,000 clients: one sort, one run of bytes).
 */
export interface FreshList {
  resources: EncodedResource[];
  /** The `resources` entry of each of `resources`, in order. */
  entries: Uint8Array[];
  /** `entries` concatenated (what deltaResponse writes as field 2), built once BODY_AFTER streams asked for the list. */
  body?: Uint8Array;
  uses: number;
}

/**
 * Requests of one list before its entries are kept as one byte run: a scope's shared map reaches it, a proxy's own
 * map (served to its own few streams) does not, and so retains no second copy of its bytes (a run per proxy's
 * LDS/CDS held ~340 kB per client: 1,000 clients' first wave slower, 4.0–4.5 vs 3.5–3.9 s).
 */
const BODY_AFTER = 8;

/**
 * Fresh lists per served map, weakly keyed by the map; at most `max` selections per map (oldest dropped). A map
 * served to one stream only (a proxy's own translation) costs what the stream's own list did; the byte run is built
 * only for a list asked for often (BODY_AFTER).
 */
export class FreshLists {
  private readonly byMap = new WeakMap<ResourceMap, Map<string, FreshList>>();
  constructor(
    private readonly entry: (r: EncodedResource) => Uint8Array,
    private readonly max = 64,
  ) {}
  /** The list for `selection` (a key naming the subscription) of `all`; `pick` gives the resources, sorted by name. */
  get(all: ResourceMap, selection: string, pick: () => EncodedResource[]): FreshList {
    let lists = this.byMap.get(all);
    if (!lists) this.byMap.set(all, (lists = new Map()));
    const hit = lists.get(selection);
    if (hit) {
      if (++hit.uses >= BODY_AFTER) hit.body ??= concat(hit.entries);
      return hit;
    }
    const resources = pick();
    const out: FreshList = { resources, entries: resources.map(this.entry), uses: 1 };
    if (lists.size >= this.max) {
      const oldest = lists.keys().next();
      if (!oldest.done) lists.delete(oldest.value);
    }
    lists.set(selection, out);
    return out;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export class AnyCache {
  /** Diffs between served maps shared by the Delta streams (delta.ts). */
  readonly deltaDiffs = new DeltaDiffs();
  /** First-response lists shared by the Delta streams of one selection (delta.ts). */
  readonly freshLists = new FreshLists((r) => this.deltaEntry(r).bytes);
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
