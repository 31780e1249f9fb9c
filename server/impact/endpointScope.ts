// Which proxies an endpoint-only change reaches (issue 24): istiod pushes an EDS update only to the proxies
// whose SidecarScope holds the moved service (pilot/pkg/xds/proxy_dependencies.go DefaultProxyNeedsPush →
// proxyDependentOnConfig: a Service/ServiceEntry config is a dependency of a sidecar only when
// `SidecarScope.DependsOnConfig` says its egress imports it, in the current or the previous scope). affected.ts
// scopes by namespace and exportTo, which for a Service exported mesh-wide (the default) is every proxy;
// this narrows an endpoint-only change to the proxies that can hold a ClusterLoadAssignment of a moved
// service: the service is visible to the proxy's namespace (exportTo) and, for a sidecar with a Sidecar
// egress, imported by it (sidecarScope.selectServices), plus the moved pods' own proxies (their IP is their
// identity). Conservative: anything unclear keeps affected.ts' answer.
import type { MeshSnapshot, ProxyModel, ServiceModel, TranslateOptions } from '../model/mesh';
import type { StoreChange } from '../sources/store';
import { chooseSidecar, importedHosts, selectServices } from '../translate/view/sidecarScope';
import { type AffectedProxies, exportScope, parseStoreKey } from './affected';

/**
 * The hostnames whose endpoints differ between two snapshots, when `change` only moved endpoints of
 * services that go to EDS (ClientSideLB); undefined when a full push is needed (a headless, DNS or
 * passthrough service in a changed namespace inlines endpoints into listeners or clusters).
 */
export function movedEndpointHosts(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
): Set<string> | undefined {
  if (!change.endpointsOnly) return undefined;
  const namespaces = new Set<string>();
  for (const key of change.changed) {
    const k = parseStoreKey(key);
    if (!k) return undefined;
    namespaces.add(k.namespace);
  }
  const hosts = new Set<string>();
  for (const snap of [prev, next])
    for (const s of snap.services) {
      if (!namespaces.has(s.namespace)) continue;
      if (s.resolution !== 'ClientSideLB') return undefined;
    }
  const keys = new Set([...prev.endpoints.keys(), ...next.endpoints.keys()]);
  for (const k of keys) {
    const ns = k.slice(0, k.indexOf('/'));
    if (!namespaces.has(ns)) continue;
    const a = prev.endpoints.get(k);
    const b = next.endpoints.get(k);
    if (a === b) continue;
    if (JSON.stringify(a ? [...a] : null) !== JSON.stringify(b ? [...b] : null)) hosts.add(k.slice(k.indexOf('/') + 1));
  }
  return hosts;
}

/** Whether `proxy` (of `snap`) may hold a cluster, hence a ClusterLoadAssignment, of `service`. */
function mayHold(snap: MeshSnapshot, proxy: ProxyModel, service: ServiceModel, options: TranslateOptions): boolean {
  const visible = exportScope(service.exportTo, service.namespace);
  if (visible !== 'all' && !visible.has(proxy.namespace)) return false;
  if (proxy.type !== 'sidecar') return true;
  const sc = chooseSidecar(snap.sidecars, proxy, options.rootNamespace);
  if (!sc || (sc.spec.egress ?? []).length === 0) return true;
  return selectServices([service], importedHosts(sc, proxy.namespace, options)).length > 0;
}

/**
 * `affected` narrowed for an endpoint-only change of EDS services (`hosts`, movedEndpointHosts; undefined:
 * not such a change, `affected` as it is): its proxies that may hold a CLA of a moved service, in either
 * snapshot, and the proxies of the changed pods themselves. Types are kept as they are.
 */
export function narrowEndpointChange(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
  affected: AffectedProxies,
  options: TranslateOptions,
  hosts: ReadonlySet<string> | undefined = movedEndpointHosts(prev, next, change),
): AffectedProxies {
  if (!hosts) return affected;
  const own = new Set<string>();
  for (const key of change.changed) {
    const k = parseStoreKey(key);
    if (k?.kind === 'Pod') own.add(`${k.name}.${k.namespace}`);
  }
  const moved = (snap: MeshSnapshot) => snap.services.filter((s) => hosts.has(s.hostname));
  const services = [moved(prev), moved(next)] as const;
  const keep = (id: string): boolean => {
    if (own.has(id)) return true;
    return ([prev, next] as const).some((snap, i) => {
      const p = snap.proxiesById.get(id);
      return p !== undefined && services[i]!.some((s) => mayHold(snap, p, s, options));
    });
  };
  const proxies = affected.proxies.filter(keep);
  const every = new Set([...prev.proxies, ...next.proxies].map((p) => p.id));
  return { all: proxies.length > 0 && proxies.length === every.size, proxies, types: affected.types };
}
