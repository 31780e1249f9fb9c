// A small bounded cache owned by whoever creates it (one per runtime / CLI run): never module state.
// Keys are the translation inputs (snapshot version, proxy id, options), so a hit is always valid.

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
  clear(): void;
}

/** Least-recently-used map with a fixed capacity. */
export function createCache<V>(capacity = 512): BoundedCache<V> {
  const map = new Map<string, V>();
  return {
    get(key) {
      const v = map.get(key);
      if (v !== undefined) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      while (map.size > capacity) {
        const oldest = map.keys().next();
        if (oldest.done) break;
        map.delete(oldest.value);
      }
    },
    get size() {
      return map.size;
    },
    clear() {
      map.clear();
    },
  };
}
