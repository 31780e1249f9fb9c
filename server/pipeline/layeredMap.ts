// A pod's LDS / CDS resources by name, as a view over its Sidecar scope's shared map and its own few inbound ones
// (scopeSharing.ts mergeScope: the names are disjoint, and the merged list holds exactly both). Every pod of a scope
// used to get a Map of its own of the whole merged list — at issue 24's 5× mesh ~1,250 clusters per pod, built per
// client and kept as long as it is connected; the view costs the pod its own inbound entries only, and reads the
// same as that Map: the same entries, iterated in the merged list's order.
import type { EncodedResource } from '../envoy/encode';

/** The halves a merged list was made of: the scope's shared list and the proxy's own. */
export interface ListLayers {
  shared: readonly EncodedResource[];
  own: readonly EncodedResource[];
}

export class LayeredMap implements ReadonlyMap<string, EncodedResource> {
  constructor(
    /** The merged list (shared ∪ own, in its order): what iteration walks. */
    private readonly list: readonly EncodedResource[],
    private readonly shared: ReadonlyMap<string, EncodedResource>,
    private readonly own: ReadonlyMap<string, EncodedResource>,
  ) {}

  get size(): number {
    return this.list.length;
  }
  get(name: string): EncodedResource | undefined {
    return this.own.get(name) ?? this.shared.get(name);
  }
  has(name: string): boolean {
    return this.own.has(name) || this.shared.has(name);
  }
  forEach(fn: (value: EncodedResource, key: string, map: ReadonlyMap<string, EncodedResource>) => void, thisArg?: unknown): void {
    for (const r of this.list) fn.call(thisArg, r, r.name, this);
  }
  *entries(): MapIterator<[string, EncodedResource]> {
    for (const r of this.list) yield [r.name, r];
  }
  *keys(): MapIterator<string> {
    for (const r of this.list) yield r.name;
  }
  *values(): MapIterator<EncodedResource> {
    yield* this.list;
  }
  [Symbol.iterator](): MapIterator<[string, EncodedResource]> {
    return this.entries();
  }
}
