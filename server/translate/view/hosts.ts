// Host name rules istiod applies everywhere: short-name resolution (model/config.go:ResolveShortnameToFQDN),
// wildcard matching (pkg/config/host/name.go: Matches / SubsetOf) and visibility by exportTo
// (model/push_context.go:IsServiceVisible).

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function isIP(h: string): boolean {
  if (IPV4.test(h)) return h.split('.').every((o) => Number(o) <= 255);
  return h.includes(':') && /^[0-9a-fA-F:.]+$/.test(h);
}

/**
 * ResolveShortnameToFQDN: a host with no `.` (and not `*`, not an IP) becomes `<h>.<ns>.svc.<suffix>`;
 * anything containing a dot is taken verbatim (`a.b` is not expanded).
 */
export function resolveShortname(h: string, namespace: string, domainSuffix: string): string {
  if (h === '' || h === '*' || h.includes('.') || isIP(h)) return h;
  return `${h}.${namespace}.svc.${domainSuffix}`;
}

const isWildcard = (h: string) => h.startsWith('*');

/** host.Name.Matches: true when the two names (either may be a wildcard) have a common member. */
export function hostsMatch(a: string, b: string): boolean {
  const aw = isWildcard(a);
  const bw = isWildcard(b);
  if (!aw && !bw) return a === b;
  if (aw && bw) {
    const as = a.slice(1);
    const bs = b.slice(1);
    return as.length > bs.length ? as.endsWith(bs) : bs.endsWith(as);
  }
  const [w, n] = aw ? [a, b] : [b, a];
  return n.endsWith(w.slice(1));
}

/** host.Name.SubsetOf: every name matched by `a` is matched by `b`. */
export function hostSubsetOf(a: string, b: string): boolean {
  if (isWildcard(b)) {
    if (b === '*') return true;
    return a.endsWith(b.slice(1)) && (isWildcard(a) ? a.length >= b.length : true);
  }
  return !isWildcard(a) && a === b;
}

/**
 * MostSpecificHostMatch: exact match first, else the longest wildcard among `candidates` that matches `needle`.
 * Returns the matching candidate.
 */
export function mostSpecificHostMatch(needle: string, candidates: readonly string[]): string | undefined {
  if (candidates.includes(needle)) return needle;
  let best: string | undefined;
  for (const c of candidates) {
    if (!isWildcard(c)) continue;
    if (!hostSubsetOf(needle, c)) continue;
    if (best === undefined || c.length > best.length) best = c;
  }
  return best;
}

/**
 * exportTo visibility (IsServiceVisible / the DR and VS indexes): empty → mesh default (public); `*` → all;
 * `~` → nobody; `.` → the owner's namespace; a namespace name → that namespace only.
 */
export function isVisibleTo(exportTo: readonly string[], ownerNamespace: string, namespace: string): boolean {
  if (exportTo.length === 0) return true;
  if (exportTo.includes('*')) return true;
  if (exportTo.includes('.') && ownerNamespace === namespace) return true;
  return exportTo.includes(namespace);
}

/** label-selector subset: every selector label is present with the same value. */
export function labelsMatch(selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
