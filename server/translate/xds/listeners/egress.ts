// Sidecar egress listeners (model/sidecar.go: convertIstioListenerToWrapper, needsPortMatch,
// serviceMatchingListenerPort, GetEgressListenerForRDS). Each `spec.egress[i]` of the Sidecar in force is
// one egress listener with its own imported services and VirtualServices; an entry with `port` only
// imports services having that port (narrowed to it) and gets its own listener/RDS on that port; the entry
// without port is the catch-all. Without a Sidecar (or without egress) there is one catch-all listener
// holding the view's services and VirtualServices.
import type { IstioEgressListener } from '../../../model/istio';
import type { ServiceModel, ServicePort } from '../../../model/mesh';
import { parseProtocol } from '../../../model/parse/protocol';
import { servicesVisibleTo } from '../../view/buildProxyView';
import { dedupeByHostname, importedHosts, selectServices, selectVirtualServices } from '../../view/sidecarScope';
import type { ProxyView } from '../../view/types';

export interface EgressListener {
  /** Index in the Sidecar's `spec.egress` (-1 for the implicit catch-all). */
  index: number;
  /** The listener port of an entry with `port` (number, name, protocol as declared); undefined = catch-all. */
  port?: ServicePort;
  bind?: string;
  /** The view restricted to this egress listener's services and VirtualServices. */
  view: ProxyView;
}

const hasPort = (e: IstioEgressListener) => (e.port?.number ?? 0) > 0;

/** Whether the Sidecar in force declares any egress listener with an explicit port. */
export function hasPortEgress(view: ProxyView): boolean {
  return (view.sidecar?.spec.egress ?? []).some(hasPort);
}

/** serviceMatchingListenerPort: the service narrowed to the listener port, or undefined when it has none. */
function narrowToPort(s: ServiceModel, port: number): ServiceModel | undefined {
  const p = s.ports.find((sp) => sp.port === port);
  if (!p) return undefined;
  return s.ports.length === 1 ? s : { ...s, ports: [p] };
}

/**
 * The egress listeners of the proxy, in Sidecar order. When the Sidecar declares no port-specific egress
 * listener the result is the single catch-all with the view itself (the view already holds its scope).
 */
export function egressListeners(view: ProxyView): EgressListener[] {
  const sidecar = view.sidecar;
  if (!sidecar || !hasPortEgress(view)) return [{ index: -1, view }];
  const visible = servicesVisibleTo(view.snapshot, view.proxy.namespace);
  return (sidecar.spec.egress ?? []).map((entry, index) => {
    const imported = importedHosts({ ...sidecar, spec: { ...sidecar.spec, egress: [entry] } }, view.proxy.namespace, view.options);
    let services = dedupeByHostname(selectServices(visible, imported), view.proxy.namespace);
    const out: EgressListener = { index, view };
    if (hasPort(entry) && entry.port) {
      const number = entry.port.number;
      const protocol = parseProtocol(entry.port.protocol);
      out.port = { name: entry.port.name ?? '', port: number, protocol };
      // needsPortMatch: every port except HTTP_PROXY narrows the services to that port.
      if (protocol !== 'HTTP_PROXY') services = services.flatMap((s) => narrowToPort(s, number) ?? []);
    }
    if (entry.bind) out.bind = entry.bind;
    out.view = { ...view, services, virtualServices: selectVirtualServices(view.virtualServices, imported) };
    return out;
  });
}

/** GetEgressListenerForRDS: the first egress listener on that port, else the catch-all (the last entry). */
export function egressListenerForPort(listeners: readonly EgressListener[], port: number): EgressListener | undefined {
  for (const e of listeners) {
    if (!e.port) return e;
    if (e.port.port === port) return e;
  }
  return undefined;
}

/** The view RDS for `port` is built from (the whole view when the Sidecar has no port-specific egress). */
export function viewForRoutePort(view: ProxyView, port: number): ProxyView {
  if (!hasPortEgress(view)) return view;
  return egressListenerForPort(egressListeners(view), port)?.view ?? { ...view, services: [], virtualServices: [] };
}

/**
 * collectImportedServices + appendSidecarServices for CDS: the egress listeners' services in order, one per
 * hostname (first wins; a later one of the same namespace adds its ports). Services imported only through a
 * port-specific egress listener thus get clusters for that port only.
 */
export function clusterScopeView(view: ProxyView): ProxyView {
  if (!hasPortEgress(view)) return view;
  const index = new Map<string, number>();
  const list: ServiceModel[] = [];
  for (const e of egressListeners(view)) {
    for (const s of e.view.services) {
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
  return { ...view, services: list };
}
