// Services a proxy needs clusters for (model/sidecar.go:collectImportedServices): the imported services plus,
// for CDS only, the visible services that are destinations of imported VirtualServices.
import type { ServiceModel } from '../../model/mesh';
import type { ProxyViewBase } from './types';
import { isVisibleTo } from './hosts';

export function destinationHosts(view: Pick<ProxyViewBase, 'virtualServices'>): string[] {
  const hosts = new Set<string>();
  for (const vs of view.virtualServices) {
    for (const r of vs.spec.http ?? []) {
      for (const d of r.route ?? []) hosts.add(d.destination.host);
      if (r.mirror) hosts.add(r.mirror.host);
      for (const m of r.mirrors ?? []) hosts.add(m.destination.host);
    }
    for (const r of vs.spec.tcp ?? []) for (const d of r.route ?? []) hosts.add(d.destination.host);
    for (const r of vs.spec.tls ?? []) for (const d of r.route ?? []) hosts.add(d.destination.host);
  }
  return [...hosts];
}

export function servicesForClusters(
  view: Pick<ProxyViewBase, 'services' | 'virtualServices' | 'snapshot' | 'proxy' | 'options'>,
): ServiceModel[] {
  const have = new Set(view.services.map((s) => s.hostname));
  const extra: ServiceModel[] = [];
  for (const host of destinationHosts(view)) {
    if (have.has(host)) continue;
    const candidates = (view.snapshot.servicesByHost.get(host) ?? []).filter((s) =>
      isVisibleTo(s.exportTo, s.namespace, view.proxy.namespace, view.options.defaultServiceExportTo),
    );
    const svc = candidates.find((s) => s.namespace === view.proxy.namespace) ?? candidates[0];
    if (svc) {
      extra.push(svc);
      have.add(host);
    }
  }
  return [...view.services, ...extra];
}
