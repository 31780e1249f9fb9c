// buildProxyView: istiod's SidecarScope for one proxy plus the PushContext lookups builders need
// (istio-translation.md §1–2). Pure: reads only its arguments.
import type { IstioConfig, MeshSnapshot, ProxyModel, ServiceModel, TranslateOptions } from '../../model/mesh';
import { endpointKey } from '../../model/mesh';
import type { BoundVirtualService, ProxyView } from './types';
import { destinationRuleLookup } from './destinationRules';
import { isVisibleTo, labelsMatch } from './hosts';
import { serviceTargets } from './serviceTargets';
import { chooseSidecar, dedupeByHostname, importedHosts, selectServices, selectVirtualServices } from './sidecarScope';
import { MESH_GATEWAY, virtualServicesForGateway } from './virtualServices';

/** Services exported to a namespace (servicesExportedToNamespace), in snapshot order. */
export function servicesVisibleTo(snapshot: MeshSnapshot, namespace: string): ServiceModel[] {
  return snapshot.services.filter((s) => isVisibleTo(s.exportTo, s.namespace, namespace));
}

/**
 * The Gateways (`ns/name`) whose selector selects a router's labels, in creation order
 * (push_context.go:mergeGateways; no selector = every gateway pod).
 */
export function gatewaysForRouter(snapshot: MeshSnapshot, proxy: ProxyModel): IstioConfig<'Gateway'>[] {
  return snapshot.gateways.filter((g) => labelsMatch(g.spec?.selector, proxy.labels));
}

/**
 * Extension point for gateways: the VirtualServices bound to any Gateway selecting the router, in the
 * per-gateway import order (VirtualServicesForGateway), first occurrence kept. Gateway route generation
 * should call virtualServicesForGateway per server instead; this is the union the view exposes.
 */
function routerVirtualServices(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): BoundVirtualService[] {
  const seen = new Set<string>();
  const out: BoundVirtualService[] = [];
  for (const gw of gatewaysForRouter(snapshot, proxy)) {
    for (const vs of virtualServicesForGateway(snapshot, proxy.namespace, `${gw.meta.namespace}/${gw.meta.name}`, options)) {
      const key = `${vs.meta.namespace}/${vs.meta.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(vs);
    }
  }
  return out;
}

export function buildProxyView(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): ProxyView {
  const visible = servicesVisibleTo(snapshot, proxy.namespace);
  const sidecar = chooseSidecar(snapshot.sidecars, proxy, options.rootNamespace);
  let services: ServiceModel[];
  let virtualServices: BoundVirtualService[];
  if (proxy.type === 'router') {
    // DefaultSidecarScopeForGateway: every service exported to the gateway's namespace.
    services = dedupeByHostname(visible, proxy.namespace);
    virtualServices = routerVirtualServices(snapshot, proxy, options);
  } else {
    const meshVs = virtualServicesForGateway(snapshot, proxy.namespace, MESH_GATEWAY, options);
    if (sidecar && (sidecar.spec.egress ?? []).length > 0) {
      const imported = importedHosts(sidecar, proxy.namespace, options);
      services = dedupeByHostname(selectServices(visible, imported), proxy.namespace);
      virtualServices = selectVirtualServices(meshVs, imported);
    } else {
      // Default scope (`*/*`); a Sidecar without egress also imports everything.
      services = dedupeByHostname(visible, proxy.namespace);
      virtualServices = meshVs;
    }
  }
  const outboundTrafficPolicy = sidecar?.spec.outboundTrafficPolicy?.mode ?? options.outboundTrafficPolicy;

  const byHost = new Map<string, ServiceModel[]>();
  for (const s of services) byHost.set(s.hostname, [...(byHost.get(s.hostname) ?? []), s]);
  const service = (hostname: string, preferNamespace?: string): ServiceModel | undefined => {
    const list = byHost.get(hostname) ?? visible.filter((s) => s.hostname === hostname);
    return (
      (preferNamespace !== undefined ? list.find((s) => s.namespace === preferNamespace) : undefined) ??
      list.find((s) => s.namespace === proxy.namespace) ??
      list[0]
    );
  };
  const destinationRule = destinationRuleLookup(snapshot, proxy, options, (h) => service(h)?.namespace);
  const view: ProxyView = {
    snapshot,
    proxy,
    options,
    outboundTrafficPolicy,
    services,
    virtualServices,
    serviceTargets: serviceTargets(snapshot, proxy),
    destinationRule,
    service,
    endpoints: (svc, port) => snapshot.endpoints.get(endpointKey(svc))?.get(port) ?? [],
  };
  if (sidecar) view.sidecar = sidecar;
  return view;
}
