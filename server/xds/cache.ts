// Encoded-resource cache: each EncodedResource is wrapped into its google.protobuf.Any bytes once.
// Keyed weakly by the EncodedResource object (which the encoder produces once per content), with a
// second key on (type, name, hash) so equal content from a fresh object is not re-wrapped.
import type { EncodedResource } from '../envoy/encode';
import { encodeAny } from './wire';

export class AnyCache {
  private byObject = new WeakMap<EncodedResource, Uint8Array>();
  private byHash = new Map<string, Uint8Array>();
  private readonly maxEntries: number;

  constructor(maxEntries = 50_000) {
    this.maxEntries = maxEntries;
  }

  /** The Any bytes of `r` (type_url = r.typeUrl, value = r.bytes). */
  any(r: EncodedResource): Uint8Array {
    const hit = this.byObject.get(r);
    if (hit) return hit;
    const key = `${r.typeUrl}\n${r.name}\n${r.hash}`;
    let bytes = this.byHash.get(key);
    if (!bytes) {
      bytes = encodeAny(r.typeUrl, r.bytes);
      if (this.byHash.size >= this.maxEntries) {
        // Bounded: drop the oldest entry (Map keeps insertion order).
        const oldest = this.byHash.keys().next();
        if (!oldest.done) this.byHash.delete(oldest.value);
      }
      this.byHash.set(key, bytes);
    }
    this.byObject.set(r, bytes);
    return bytes;
  }

  get size(): number {
    return this.byHash.size;
  }
}
