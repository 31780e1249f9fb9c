// Host lookup the way Istio's analyzers do it (pkg/config/analysis/analyzers/util: hosts.go
// ConvertHostToFQDN / GetResourceNameFromHost, service_lookup.go InitServiceEntryHostMap /
// GetDestinationHost): every ServiceEntry host and Kubernetes Service keyed by `scope/fqdn`, where scope is
// `*` (exported everywhere) or the namespace it is visible in.
import { hostSubsetOf, isWildcard } from '../model/host';
import type { MeshSnapshot } from '../model/mesh';

export interface HostEntry {
  /** `ServiceEntry ns/name` or `Service ns/name`. */
  source: string;
  ports: readonly number[];
  /** ServiceEntry workloadSelector labels (Kubernetes Services contribute none, as in Istio's conversion). */
  selector: Readonly<Record<string, string>>;
}

export type HostMap = ReadonlyMap<string, HostEntry>;

/** util.ConvertHostToFQDN: short names (no dot, not a wildcard) get `.NS.svc.DOMAIN`. */
export function toFqdn(namespace: string, host: string, domainSuffix: string): string {
  return host.startsWith('*') || host.includes('.') ? host : `${host}.${namespace}.svc.${domainSuffix}`;
}

/** util.GetResourceNameFromHost: `name.ns.svc.DOMAIN` → ns/name, anything else → defaultNs/host. */
export function resourceNameFromHost(defaultNs: string, host: string, domainSuffix: string): string {
  const suffix = `.svc.${domainSuffix}`;
  if (host.endsWith(suffix)) {
    const rest = host.slice(0, -suffix.length);
    const dot = rest.lastIndexOf('.');
    if (dot > 0 && dot < rest.length - 1) return `${rest.slice(dot + 1)}/${rest.slice(0, dot)}`;
  }
  return `${defaultNs}/${host}`;
}

export function buildHostMap(s: MeshSnapshot, domainSuffix: string): HostMap {
  const out = new Map<string, HostEntry>();
  for (const se of s.serviceEntries) {
    const ns = se.meta.namespace;
    const entry: HostEntry = {
      source: `ServiceEntry ${ns}/${se.meta.name}`,
      ports: (se.spec.ports ?? []).map((p) => p.number),
      selector: se.spec.workloadSelector?.labels ?? {},
    };
    const exportTo = se.spec.exportTo ?? [];
    const scopes = exportTo.length === 0 || exportTo.includes('*') ? ['*'] : exportTo.map((e) => (e === '.' ? ns : e));
    for (const h of se.spec.hosts ?? []) for (const scope of scopes) out.set(`${scope}/${toFqdn(ns, h, domainSuffix)}`, entry);
  }
  for (const svc of s.services) {
    if (svc.registry !== 'Kubernetes') continue;
    const entry: HostEntry = { source: `Service ${svc.namespace}/${svc.name}`, ports: svc.ports.map((p) => p.port), selector: {} };
    const scopes = svc.exportTo.length === 0 ? ['*'] : svc.exportTo.map((e) => (e === '.' ? svc.namespace : e));
    for (const scope of scopes) out.set(`${scope}/${toFqdn(svc.namespace, svc.name, domainSuffix)}`, entry);
  }
  return out;
}

/** util.GetDestinationHost: the service a host in namespace `ns` (with the referrer's exportTo) resolves to. */
export function lookupHost(
  map: HostMap,
  ns: string,
  exportTo: readonly string[],
  host: string,
  domainSuffix: string,
): HostEntry | undefined {
  const fqdn = toFqdn(ns, host, domainSuffix);
  const all = map.get(`*/${fqdn}`);
  if (all) return all;
  const scopes = exportTo.length === 0 ? [ns] : exportTo.map((e) => (e === '.' ? ns : e));
  for (const scope of scopes) {
    const hit = map.get(`${scope}/${fqdn}`);
    if (hit) return hit;
  }
  for (const [key, entry] of map) {
    const slash = key.indexOf('/');
    const scope = key.slice(0, slash);
    const seHost = key.slice(slash + 1);
    if (!isWildcard(seHost)) continue;
    if (scope !== '*' && scope !== ns) continue;
    if (hostSubsetOf(host, seHost)) return entry;
  }
  return undefined;
}

/** k8s labels.SelectorFromSet(sel).Matches(labels): every selector pair present (empty selects everything). */
export function selects(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** k8s labels.Selector.String() of a set: `k=v` pairs sorted by key, comma-joined. */
export function selectorString(selector: Readonly<Record<string, string>>): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}
