// Virtual host domains of a service as seen from a sidecar (httproute.go:generateVirtualHostDomains,
// GenerateAltVirtualHosts, generateAltVirtualHostsForKubernetesService, dedupeDomains). Sidecars set
// ignore_port_in_host_matching, so no `:port` variants are generated.
import { isIP, isIPv4 } from 'node:net';
import type { ServiceModel } from '../../../model/mesh';

/** util.IPv6Compliant: brackets around addresses containing ':'. */
export const ipv6Compliant = (h: string): string => (h.includes(':') ? `[${h}]` : h);

/** `<ns>.svc.cluster.local` → `.svc.cluster.local`. */
function removeSvcNamespace(domain: string): string {
  const i = domain.indexOf('.svc.');
  return i > 0 ? domain.slice(i) : domain;
}

/** Short forms of a Kubernetes host seen from proxy domain `<pns>.svc.<suffix>`. */
function kubeAltHosts(hostname: string, proxyDomain: string): string[] {
  const id = proxyDomain.indexOf('.svc.');
  const ih = hostname.indexOf('.svc.');
  if (ih <= 0) return [];
  const ns = hostname.indexOf('.');
  if (ns + 1 >= hostname.length || ns + 1 > ih) return [];
  if (hostname.slice(ns + 1, ih) === proxyDomain.slice(0, id)) {
    return [hostname.slice(0, ns), `${hostname.slice(0, ih)}.svc`, hostname.slice(0, ih)];
  }
  return [hostname.slice(0, ih), `${hostname.slice(0, ih)}.svc`];
}

/** Parts of fqdn not shared (as a suffix) with proxyDomain, and the shared parts. */
function uniqueAndShared(fqdn: string, proxyDomain: string): { unique: string[]; shared: string[] } {
  const f = fqdn.split('.').reverse();
  const p = proxyDomain.split('.').reverse();
  const shared: string[] = [];
  for (let i = 0; i < Math.min(f.length, p.length); i++) {
    if (f[i] === p[i]) shared.push(f[i] as string);
    else break;
  }
  if (shared.length === 0) return { unique: fqdn.split('.'), shared: [] };
  return { unique: f.slice(shared.length).reverse(), shared: shared.reverse() };
}

/**
 * node:net's isIP(h) !== 0, without its IPv6 pattern for a text with no `:` (every IPv6 form has one): that
 * pattern was 2 % of `meshscope translate` on 1,000 services (one call per service host per sidecar).
 */
const literalIp = (h: string): boolean => (h.includes(':') ? isIP(h) !== 0 : isIPv4(h));

/** GenerateAltVirtualHosts (port-less form): `host.` (absolute FQDN, not for IPs), then short forms. */
export function altVirtualHosts(hostname: string, proxyDomain: string): string[] {
  const out: string[] = [];
  if (!literalIp(hostname)) out.push(`${hostname}.`);
  if (proxyDomain.includes('.svc.')) {
    if (hostname.endsWith(removeSvcNamespace(proxyDomain))) out.push(...kubeAltHosts(hostname, proxyDomain));
    return out;
  }
  const { unique, shared } = uniqueAndShared(hostname, proxyDomain);
  if (shared.length === 0) return out;
  const u = unique.join('.');
  out.push(ipv6Compliant(u));
  if (unique.length === 2) out.push(ipv6Compliant(`${u}.${shared[0]}`));
  return out;
}

export interface DomainSet {
  domains: string[];
  /** The alternate (expanded) hosts among domains, for dedupeDomains' known-FQDN rule. */
  altHosts: string[];
}

/**
 * generateVirtualHostDomains: hostname (+ aliases), each followed by its alternate hosts; headless
 * Kubernetes services repeat every domain with a `*.` prefix; then the service addresses except 0.0.0.0.
 */
export function serviceDomains(service: ServiceModel, proxyDomain: string, aliases: readonly string[] = []): DomainSet {
  const domains: string[] = [];
  const altHosts: string[] = [];
  for (const h of [service.hostname, ...aliases]) {
    const alt = altVirtualHosts(h, proxyDomain);
    domains.push(ipv6Compliant(h), ...alt);
    altHosts.push(...alt);
  }
  if (service.resolution === 'Passthrough' && service.registry === 'Kubernetes') {
    for (const d of [...domains]) domains.push(`*.${d}`);
  }
  // A ServiceEntry with several addresses is several services in istiod (one per host × address); its
  // BuildSidecarOutboundVirtualHosts keeps the last one per hostname, so only the last address is a domain.
  const addrs =
    service.registry === 'External' && service.addresses.length > 1
      ? service.addresses.slice(-1)
      : service.addresses.length
        ? service.addresses
        : [service.address];
  for (const a of addrs) if (a && a !== '0.0.0.0') domains.push(ipv6Compliant(a));
  return { domains, altHosts };
}

/**
 * dedupeDomains: drops domains (case-insensitively) already used by an earlier vhost of the route
 * config, and expanded hosts that are another service's FQDN. Records the kept ones in `used`.
 */
export function dedupeDomains(d: DomainSet, used: Set<string>, knownFqdn: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const dom of d.domains) {
    const lower = dom.toLowerCase();
    if (used.has(lower)) continue;
    if (knownFqdn.has(dom) && d.altHosts.includes(dom)) continue;
    out.push(dom);
    used.add(lower);
  }
  return out;
}
