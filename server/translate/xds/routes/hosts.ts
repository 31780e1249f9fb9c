// Istio host name matching (pkg/config/host Name.Matches, MostSpecificHostMatch).

export const isWildcard = (h: string): boolean => h.startsWith('*');

/** Bidirectional wildcard match (host.Name.Matches). */
export function hostMatches(n: string, o: string): boolean {
  const nw = isWildcard(n);
  const ow = isWildcard(o);
  if (nw && ow) return n.length < o.length ? o.slice(1).endsWith(n.slice(1)) : n.slice(1).endsWith(o.slice(1));
  if (nw) return o.endsWith(n.slice(1));
  if (ow) return n.endsWith(o.slice(1));
  return n === o;
}

/**
 * MostSpecificHostMatch: an exact key wins; otherwise the longest wildcard key whose suffix matches
 * (first inserted wins ties). Returns the value.
 */
export function mostSpecificHostMatch<V>(needle: string, exact: ReadonlyMap<string, V>, wildcard: ReadonlyMap<string, V>): V | undefined {
  if (isWildcard(needle)) {
    if (wildcard.has(needle)) return wildcard.get(needle);
  } else if (exact.has(needle)) return exact.get(needle);
  const n = isWildcard(needle) ? needle.slice(1) : needle;
  let best: string | undefined;
  let value: V | undefined;
  for (const [h, v] of wildcard) {
    if (!n.endsWith(h.slice(1))) continue;
    if (best === undefined || h.length > best.length) {
      best = h;
      value = v;
    }
  }
  return value;
}
