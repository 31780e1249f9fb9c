// Sidecar egress listeners (model/sidecar.go: convertIstioListenerToWrapper, needsPortMatch,
// serviceMatchingListenerPort, GetEgressListenerForRDS, collectImportedServices). Each `spec.egress[i]` of
// the Sidecar in force is one egress listener with its own imported services and VirtualServices; an entry
// with `port` only imports services having that port (narrowed to it) and gets its own listener/RDS on that
// port; the entry without port is the catch-all. Without a Sidecar (or without a port-specific egress entry)
// there is one catch-all listener holding the view's services and VirtualServices. Pure.
import type { IstioEgressListener } from '../../model/istio';
import type { IstioConfig, ServiceModel, ServicePort } from '../../model/mesh';
import { parseProtocol } from '../../model/parse/protocol';
import { isVisibleTo } from './hosts';
import { dedupeByHostname, importedHosts, selectServices, selectVirtualServices } from './sidecarScope';
import type { ProxyViewBase } from './types';

/** One egress listener's scope: its services (narrowed to its port) and VirtualServices. */
export interface EgressScope {
  /** Index in the Sidecar's `spec.egress`. */
  index: number;
  /** The listener port of an entry with `port` (number, name, protocol as declared); undefined = catch-all. */
  port?: ServicePort;
  bind?: string;
  services: ServiceModel[];
  virtualServices: ProxyViewBase['virtualServices'];
}

const hasPort = (e: IstioEgressListener) => (e.port?.number ?? 0) > 0;

/** Whether the Sidecar declares any egress listener with an explicit port. */
export const hasPortEgress = (sidecar: IstioConfig<'Sidecar'> | undefined): boolean => (sidecar?.spec.egress ?? []).some(hasPort);

/** serviceMatchingListenerPort: the service narrowed to the listener port, or undefined when it has none. */
function narrowToPort(s: ServiceModel, port: number): ServiceModel | undefined {
  const p = s.ports.find((sp) => sp.port === port);
  if (!p) return undefined;
  return s.ports.length === 1 ? s : { ...s, ports: [p] };
}

/**
 * The egress listeners' scopes, in Sidecar order; undefined when the Sidecar declares no port-specific egress
 * listener (then the view itself is the single catch-all: it already holds its scope).
 */
export function egressScopes(view: ProxyViewBase): EgressScope[] | undefined {
  const sidecar = view.sidecar;
  if (!sidecar || !hasPortEgress(sidecar)) return undefined;
  const visible = view.snapshot.services.filter((s) =>
    isVisibleTo(s.exportTo, s.namespace, view.proxy.namespace, view.options.defaultServiceExportTo),
  );
  return (sidecar.spec.egress ?? []).map((entry, index) => {
    const imported = importedHosts({ ...sidecar, spec: { ...sidecar.spec, egress: [entry] } }, view.proxy.namespace, view.options);
    let services = dedupeByHostname(selectServices(visible, imported), view.proxy.namespace);
    const out: EgressScope = { index, services, virtualServices: selectVirtualServices(view.virtualServices, imported) };
    if (hasPort(entry) && entry.port) {
      const number = entry.port.number;
      const protocol = parseProtocol(entry.port.protocol);
      out.port = { name: entry.port.name ?? '', port: number, protocol };
      // needsPortMatch: every port except HTTP_PROXY narrows the services to that port.
      if (protocol !== 'HTTP_PROXY') out.services = services = services.flatMap((s) => narrowToPort(s, number) ?? []);
    }
    if (entry.bind) out.bind = entry.bind;
    return out;
  });
}

/** GetEgressListenerForRDS: the first egress listener on that port, else the catch-all (the last entry). */
export function scopeForPort<T extends { port?: ServicePort }>(scopes: readonly T[], port: number): T | undefined {
  for (const e of scopes) {
    if (!e.port) return e;
    if (e.port.port === port) return e;
  }
  return undefined;
}

/**
 * collectImportedServices + appendSidecarServices for CDS: the egress listeners' services in order, one per
 * hostname (first wins; a later one of the same namespace adds its ports). Services imported only through a
 * port-specific egress listener thus get clusters for that port only.
 */
export function clusterScopeServices(scopes: readonly EgressScope[]): ServiceModel[] {
  const index = new Map<string, number>();
  const list: ServiceModel[] = [];
  for (const e of scopes) {
    for (const s of e.services) {
      const at = index.get(s.hostname);
      const prev = at === undefined ? undefined : list[at];
      if (at === undefined || !prev) {
        index.set(s.hostname, list.length);
        list.push(s);
        continue;
      }
      if (prev === s || prev.namespace !== s.namespace) continue;
      const ports = [...prev.ports, ...s.ports.filter((p) => !prev.ports.some((o) => o.port === p.port))];
      list[at] = { ...prev, ports };
    }
  }
  return list;
}
