// The one ordering for names in generated output: Go's `sort.Strings` / `a < b` on strings (istiod sorts
// listener, cluster, route and header names this way), never locale-dependent `localeCompare`.
// Pure, browser-safe.

/**
 * Byte-order comparison as a sort comparator. JavaScript compares UTF-16 code units, which is UTF-8 byte order
 * for every string without characters above U+FFFF next to U+E000–U+FFFF (all the ASCII names Istio writes).
 */
export const byteCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Comparator over a string key of each item, in byte order. */
export const byteCompareBy =
  <T>(key: (item: T) => string) =>
  (a: T, b: T): number =>
    byteCompare(key(a), key(b));

/**
 * Sorts `items` in place by a string key in byte order, unless they already are (one pass): the lists the ADS
 * server sends are mostly built from maps whose insertion order is already the name order.
 */
export function sortByKey<T>(items: T[], key: (item: T) => string): T[] {
  for (let i = 1; i < items.length; i++) {
    if (key(items[i - 1]!) > key(items[i]!)) return items.sort(byteCompareBy(key));
  }
  return items;
}
