// buildProxyView: istiod's SidecarScope for one proxy plus the PushContext lookups builders need
// (istio-translation.md §1–2). Pure: reads only its arguments.
import type { LoadError, MeshSnapshot, ProxyModel, ServiceModel, TranslateOptions } from '../../model/mesh';
import { type EndpointModel, endpointKey } from '../../model/mesh';
import { completeView } from './complete';
import { destinationRuleLookup } from './destinationRules';
import { buildGatewayView } from './gateway/binding';
import type { GatewayView } from './gateway/types';
import { isVisibleTo } from './hosts';
import { serviceTargets } from './serviceTargets';
import { memoScopeServices, memoVisible } from './snapshotIndex';
import {
  chooseSidecar,
  dedupeByHostname,
  importedHosts,
  selectServices,
  selectVirtualServices,
  unmatchedEgressHosts,
} from './sidecarScope';
import type { BoundVirtualService, ProxyView, ProxyViewBase } from './types';
import { MESH_GATEWAY, virtualServicesForGateway } from './virtualServices';

/** Services exported to a namespace (servicesExportedToNamespace), in snapshot order. */
export function servicesVisibleTo(snapshot: MeshSnapshot, namespace: string, meshDefault: readonly string[] = []): readonly ServiceModel[] {
  return memoVisible(snapshot, namespace, meshDefault, () =>
    snapshot.services.filter((s) => isVisibleTo(s.exportTo, s.namespace, namespace, meshDefault)),
  );
}

/**
 * The VirtualServices bound to any Gateway selecting the router, in the per-gateway import order
 * (VirtualServicesForGateway), first occurrence kept: the union the view exposes (route generation binds per
 * server through view.gateway).
 */
function routerVirtualServices(gateway: GatewayView): BoundVirtualService[] {
  const seen = new Set<string>();
  const out: BoundVirtualService[] = [];
  for (const gw of gateway.merged.gateways) {
    for (const vs of gateway.virtualServices(`${gw.meta.namespace}/${gw.meta.name}`)) {
      const key = `${vs.meta.namespace}/${vs.meta.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(vs);
    }
  }
  return out;
}

/** The view's services by hostname. */
function hostIndex(services: readonly ServiceModel[]): Map<string, ServiceModel[]> {
  const byHost = new Map<string, ServiceModel[]>();
  for (const s of services) {
    const list = byHost.get(s.hostname);
    if (list) list.push(s);
    else byHost.set(s.hostname, [s]);
  }
  return byHost;
}

const sidecarWithEgress = (sidecar: ProxyViewBase['sidecar']) => (sidecar && (sidecar.spec.egress ?? []).length > 0 ? sidecar : undefined);

/**
 * A sidecar's services (`make`) and their hostname index, once per snapshot, Sidecar (with egress; undefined for
 * the default scope) and namespace: they read only the services visible to the namespace, the Sidecar and the
 * domain suffix / default exportTo (SidecarScope, one per Sidecar and push in istiod).
 */
function scoped(
  snapshot: MeshSnapshot,
  sidecar: ProxyViewBase['sidecar'],
  namespace: string,
  options: TranslateOptions,
  make: () => ServiceModel[],
): { services: ServiceModel[]; byHost: Map<string, ServiceModel[]> } {
  const key = `${namespace}\u0000${options.domainSuffix}\u0000${(options.defaultServiceExportTo ?? []).join('\u0000')}`;
  return memoScopeServices(snapshot, sidecar, key, () => {
    const services = make();
    return { services, byHost: hostIndex(services) };
  });
}

/**
 * `part` 'inbound': a view for the inbound builders alone (translate/inboundOnly.ts): the bound VirtualServices,
 * which only outbound builders read, are left empty and their selection's findings unreported.
 */
export function buildProxyView(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  part: 'all' | 'inbound' = 'all',
): ProxyView {
  const visible = servicesVisibleTo(snapshot, proxy.namespace, options.defaultServiceExportTo);
  const sidecar = chooseSidecar(snapshot.sidecars, proxy, options.rootNamespace);
  const targets = serviceTargets(snapshot, proxy);
  const gateway = proxy.type === 'router' ? buildGatewayView(snapshot, proxy, options, targets) : undefined;
  let services: ServiceModel[];
  let virtualServices: BoundVirtualService[];
  const errors: LoadError[] = [...(gateway?.errors ?? [])];
  if (gateway) {
    // DefaultSidecarScopeForGateway: every service exported to the gateway's namespace.
    services = dedupeByHostname(visible, proxy.namespace);
    virtualServices = routerVirtualServices(gateway);
  } else {
    if (sidecar && (sidecar.spec.egress ?? []).length > 0) {
      const imported = importedHosts(sidecar, proxy.namespace, options);
      services = scoped(snapshot, sidecar, proxy.namespace, options, () =>
        dedupeByHostname(selectServices(visible, imported), proxy.namespace),
      ).services;
      if (part === 'inbound') virtualServices = [];
      else {
        // Both readers below look only at VirtualServices of imported namespaces (or every one with `*/…`).
        const meshVs = virtualServicesForGateway(
          snapshot,
          proxy.namespace,
          MESH_GATEWAY,
          options,
          imported.has('*') ? undefined : (ns) => imported.has(ns),
        );
        virtualServices = selectVirtualServices(meshVs, imported);
        errors.push(...unmatchedEgressHosts(sidecar, proxy.namespace, options, visible, meshVs));
      }
    } else {
      // Default scope (`*/*`); a Sidecar without egress also imports everything.
      services = scoped(snapshot, undefined, proxy.namespace, options, () => dedupeByHostname(visible, proxy.namespace)).services;
      virtualServices = part === 'inbound' ? [] : virtualServicesForGateway(snapshot, proxy.namespace, MESH_GATEWAY, options);
    }
  }
  const outboundTrafficPolicy = sidecar?.spec.outboundTrafficPolicy?.mode ?? options.outboundTrafficPolicy;

  const byHost = gateway
    ? hostIndex(services)
    : scoped(snapshot, sidecarWithEgress(sidecar), proxy.namespace, options, () => services).byHost;
  const service = (hostname: string, preferNamespace?: string): ServiceModel | undefined => {
    const list = byHost.get(hostname) ?? visible.filter((s) => s.hostname === hostname);
    return (
      (preferNamespace !== undefined ? list.find((s) => s.namespace === preferNamespace) : undefined) ??
      list.find((s) => s.namespace === proxy.namespace) ??
      list[0]
    );
  };
  const endpointsBySvc = new Map<ServiceModel, ReadonlyMap<number, readonly EndpointModel[]> | null>();
  // Made on first use (its per-namespace index walks every DestinationRule): an inbound-only view never asks.
  let lookup: ((hostname: string) => ReturnType<ReturnType<typeof destinationRuleLookup>>) | undefined;
  const destinationRule = (hostname: string) => {
    lookup ??= destinationRuleLookup(snapshot, proxy, options, (h) => service(h)?.namespace);
    return lookup(hostname);
  };
  const base: ProxyViewBase = {
    snapshot,
    proxy,
    options,
    outboundTrafficPolicy,
    services,
    virtualServices,
    serviceTargets: targets,
    destinationRule,
    service,
    endpoints: (svc, port) => {
      // per service object, once per view: CDS and EDS ask for every port of every service, several times
      let byPort = endpointsBySvc.get(svc);
      if (byPort === undefined) endpointsBySvc.set(svc, (byPort = snapshot.endpoints.get(endpointKey(svc)) ?? null));
      return byPort?.get(port) ?? [];
    },
  };
  if (sidecar) base.sidecar = sidecar;
  return completeView(base, gateway ? { errors, gateway } : { errors });
}
