// Small bounded caches owned by whoever creates them (one per runtime / CLI run): never module state.
// Keys are the translation inputs (snapshot version, proxy inputs, options), so a hit is always valid.
export interface BoundedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
  clear(): void;
}

/** Least-recently-used map with a fixed capacity (entries). */
export function createCache<V>(capacity = 512): BoundedCache<V> {
  return createSizedCache<V>(capacity, () => 1);
}

/** A bounded cache that also says how much it holds and lets its owner walk and drop entries. */
export interface SizedCache<V> extends BoundedCache<V> {
  /** The sum of `sizeOf` over the entries (bytes, for a memory-bounded cache). */
  readonly total: number;
  readonly max: number;
  delete(key: string): void;
  /** Whether `key` is held (does not count as a use). */
  has(key: string): boolean;
  /** Entries, least recently used first. */
  entries(): IterableIterator<[string, V]>;
}

/**
 * Least-recently-used map bounded by the sum of `sizeOf(value)` (an estimate of bytes held, for caches of
 * translated resources: bounded by memory, not by a count). An entry larger than `max` is not kept.
 */
export function createSizedCache<V>(max: number, sizeOf: (v: V, key: string) => number): SizedCache<V> {
  const map = new Map<string, { v: V; size: number }>();
  let total = 0;
  const drop = (key: string) => {
    const e = map.get(key);
    if (!e) return;
    map.delete(key);
    total -= e.size;
  };
  return {
    get(key) {
      const e = map.get(key);
      if (e === undefined) return undefined;
      map.delete(key);
      map.set(key, e);
      return e.v;
    },
    set(key, value) {
      drop(key);
      const size = sizeOf(value, key);
      if (size > max) return;
      map.set(key, { v: value, size });
      total += size;
      while (total > max) {
        const oldest = map.keys().next();
        if (oldest.done) break;
        drop(oldest.value);
      }
    },
    delete: drop,
    has: (key) => map.has(key),
    *entries() {
      for (const [k, e] of map) yield [k, e.v] as [string, V];
    },
    get size() {
      return map.size;
    },
    get total() {
      return total;
    },
    max,
    clear() {
      map.clear();
      total = 0;
    },
  };
}
