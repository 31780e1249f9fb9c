// Istio host names: the one implementation of istio pkg/config/host (name.go: Name.Matches / SubsetOf /
// IsWildCarded; names.go: Names.Less (MoreSpecific), Intersection, NamesForNamespace), pilot/pkg/model
// config.go MostSpecificHostMatch and ResolveShortnameToFQDN. Every translator, analyzer, validator and API
// module compares host names through here. Pure, browser-safe.
//
// A name is wildcarded when it starts with `*`: `*` alone covers every name, `*.example.com` every name that
// ends in `.example.com` (not `example.com` itself). Names are compared as written (case as given).
import { byteCompare } from '../lib/compare';

/** Name.IsWildCarded: a leading `*`. */
export const isWildcard = (h: string): boolean => h.startsWith('*');

/**
 * Name.Matches: the two names (either may be a wildcard) have a member in common. Exact names match only
 * themselves; a wildcard matches every name, exact or wildcard, that ends in its suffix; of two wildcards the
 * shorter suffix must end the longer one.
 */
export function hostsMatch(a: string, b: string): boolean {
  const aw = isWildcard(a);
  const bw = isWildcard(b);
  if (aw && bw) return a.length < b.length ? b.slice(1).endsWith(a.slice(1)) : a.slice(1).endsWith(b.slice(1));
  if (aw) return b.endsWith(a.slice(1));
  if (bw) return a.endsWith(b.slice(1));
  return a === b;
}

/** Name.SubsetOf: every name `a` covers is covered by `b` (Matches, in one direction). */
export function hostSubsetOf(a: string, b: string): boolean {
  const aw = isWildcard(a);
  const bw = isWildcard(b);
  if (aw && bw) return a.length >= b.length && a.slice(1).endsWith(b.slice(1));
  if (aw) return false;
  if (bw) return a.endsWith(b.slice(1));
  return a === b;
}

/**
 * host.MoreSpecific / Names.Less as a sort comparator: exact names before wildcards, then longest first,
 * then byte order (the order istiod writes virtual hosts, gateway hosts and SNI names in).
 */
export function compareHostSpecificity(a: string, b: string): number {
  const aw = isWildcard(a);
  const bw = isWildcard(b);
  if (aw !== bw) return aw ? 1 : -1;
  if (a.length !== b.length) return b.length - a.length;
  return byteCompare(a, b);
}

/**
 * MostSpecificHostMatch (pilot/pkg/model/config.go): the value of the needle itself when it is a key (exact
 * keys for an exact needle, wildcard keys for a wildcard one), else of the longest wildcard key covering it.
 */
export function mostSpecificHostMatch<V>(
  needle: string,
  specific: ReadonlyMap<string, V>,
  wildcard: ReadonlyMap<string, V>,
): V | undefined {
  const own = isWildcard(needle) ? wildcard : specific;
  if (own.has(needle)) return own.get(needle);
  const suffixOf = isWildcard(needle) ? needle.slice(1) : needle;
  let best: string | undefined;
  let value: V | undefined;
  for (const [h, v] of wildcard) {
    if (!suffixOf.endsWith(h.slice(1))) continue;
    // Two distinct wildcards of one length cannot both end the needle, so the longest is unique.
    if (best === undefined || h.length > best.length) {
      best = h;
      value = v;
    }
  }
  return value;
}

/** MostSpecificHostMatch over a plain list of candidate hosts: the candidate chosen, if any. */
export function mostSpecificHost(needle: string, candidates: Iterable<string>): string | undefined {
  const specific = new Map<string, string>();
  const wildcard = new Map<string, string>();
  for (const c of candidates) (isWildcard(c) ? wildcard : specific).set(c, c);
  return mostSpecificHostMatch(needle, specific, wildcard);
}

/** Names.Intersection: for every pair where one name covers the other, the covered (more specific) one, once. */
export function intersectHosts(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of a) {
    for (const y of b) {
      const pick = hostSubsetOf(x, y) ? x : hostSubsetOf(y, x) ? y : undefined;
      if (pick !== undefined && !out.includes(pick)) out.push(pick);
    }
  }
  return out;
}

/** `ns/host` → [`ns`, `host`]; a host without a namespace → [undefined, host]. */
function splitNamespace(h: string): [string | undefined, string] {
  const slash = h.indexOf('/');
  return slash < 0 ? [undefined, h] : [h.slice(0, slash), h.slice(slash + 1)];
}

/**
 * NamesForNamespace: hosts written `ns/host` are kept (as `host`) only for `namespace` or `*`; plain hosts are
 * kept in every namespace.
 */
export function namesForNamespace(hosts: readonly string[], namespace: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const [ns, name] = splitNamespace(h);
    if (ns === undefined || ns === namespace || ns === '*') out.push(name);
  }
  return out;
}

/**
 * Gateway server hosts (model/gateway.go sanitizeServerHostNamespace): `./h` → `<namespace>/h`, `*\/h` → `h`,
 * and `*\/*` makes the whole list the single host `*`; other hosts stay as written.
 */
export function sanitizeServerHosts(hosts: readonly string[], namespace: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const [ns, name] = splitNamespace(h);
    if (ns === '.') out.push(`${namespace}/${name}`);
    else if (ns === '*') {
      if (name === '*') return ['*'];
      out.push(name);
    } else out.push(h);
  }
  return out;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A literal IPv4 or IPv6 address (the check ResolveShortnameToFQDN and endpoint building need). */
export function isIP(h: string): boolean {
  if (IPV4.test(h)) return h.split('.').every((o) => Number(o) <= 255);
  return h.includes(':') && /^[0-9a-fA-F:.]+$/.test(h);
}

/**
 * ResolveShortnameToFQDN: a host with no `.` (and not empty, `*` or an IP) becomes `<h>.<ns>.svc.<suffix>`;
 * anything containing a dot is taken verbatim (`a.b` is not expanded).
 */
export function resolveShortname(h: string, namespace: string, domainSuffix: string): string {
  if (h === '' || h === '*' || h.includes('.') || isIP(h)) return h;
  return `${h}.${namespace}.svc.${domainSuffix}`;
}
