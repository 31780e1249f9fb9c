// Gateway VirtualService binding (push_context.go:VirtualServicesForGateway; gateway.go:
// buildGatewayHTTPRouteConfig host intersection, pickMatchingGatewayHosts; pkg/config/host/names.go:
// NamesForNamespace, Intersection) and the router's GatewayView: the Gateways selecting it merged per port
// (./merge) with, per server, the VirtualServices that bind to it. Pure.
import type { IstioConfig, MeshSnapshot, ProxyModel, TranslateOptions } from '../../../model/mesh';
import { hostSubsetOf, hostsMatch } from '../hosts';
import type { BoundVirtualService, ServiceTarget } from '../types';
import { virtualServicesForGateway } from '../virtualServices';
import { gatewaysForRouter, mergeGateways } from './merge';
import { serverPortKey, type GatewayView, type GwServer, type HttpBinding } from './types';

/** host.NamesForNamespace: `ns/h` kept (as `h`) only for the VirtualService's namespace or `*`; plain hosts kept. */
export function namesForNamespace(hosts: readonly string[], namespace: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const slash = h.indexOf('/');
    if (slash < 0) {
      out.push(h);
      continue;
    }
    const ns = h.slice(0, slash);
    if (ns !== namespace && ns !== '*') continue;
    out.push(h.slice(slash + 1));
  }
  return out;
}

/** host.Names.Intersection: for every pair where one covers the other, the more specific (covered) name, once. */
export function intersectHosts(server: readonly string[], vs: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of server) {
    for (const v of vs) {
      const pick = hostSubsetOf(s, v) ? s : hostSubsetOf(v, s) ? v : undefined;
      if (pick !== undefined && !out.includes(pick)) out.push(pick);
    }
  }
  return out;
}

/** pickMatchingGatewayHosts: some VirtualService host overlaps a server host (`ns/h` only for that namespace). */
export function vsMatchesServerHosts(serverHosts: readonly string[], vs: IstioConfig<'VirtualService'>): boolean {
  for (const v of vs.spec.hosts ?? []) {
    for (const g of serverHosts) {
      let h = g;
      const slash = g.indexOf('/');
      if (slash >= 0) {
        if (g.slice(0, slash) !== vs.meta.namespace) continue;
        h = g.slice(slash + 1);
      }
      if (hostsMatch(h, v)) return true;
    }
  }
  return false;
}

/** The router's GatewayView; VirtualServicesForGateway is computed once per Gateway and memoized. */
export function buildGatewayView(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: Pick<TranslateOptions, 'domainSuffix'>,
  serviceTargets: readonly ServiceTarget[],
): GatewayView {
  const { merged, errors } = mergeGateways(gatewaysForRouter(snapshot, proxy), serviceTargets);
  const cache = new Map<string, readonly BoundVirtualService[]>();
  const virtualServices = (gatewayName: string): readonly BoundVirtualService[] => {
    let vss = cache.get(gatewayName);
    if (!vss) cache.set(gatewayName, (vss = virtualServicesForGateway(snapshot, proxy.namespace, gatewayName, options)));
    return vss;
  };
  return {
    merged,
    errors,
    serversAt: (port) => merged.mergedServers.get(serverPortKey(port)),
    virtualServices,
    httpBindings: (g: GwServer): HttpBinding[] =>
      virtualServices(g.gatewayName).flatMap((vs) => {
        const hosts = intersectHosts(namesForNamespace(g.server.hosts, vs.meta.namespace), vs.spec.hosts ?? []);
        return hosts.length > 0 ? [{ vs, hosts }] : [];
      }),
    l4Bindings: (g: GwServer) => virtualServices(g.gatewayName).filter((vs) => vsMatchesServerHosts(g.server.hosts, vs)),
  };
}
