// Gateway VirtualService binding (push_context.go:VirtualServicesForGateway; gateway.go:
// buildGatewayHTTPRouteConfig host intersection, pickMatchingGatewayHosts; the host name rules themselves,
// NamesForNamespace and Intersection, are server/model/host's) and the router's GatewayView: the Gateways selecting it merged per port
// (./merge) with, per server, the VirtualServices that bind to it. Pure.
import type { IstioConfig, MeshSnapshot, ProxyModel, TranslateOptions } from '../../../model/mesh';
import { hostsMatch, intersectHosts, namesForNamespace } from '../../../model/host';
import type { BoundVirtualService, ServiceTarget } from '../types';
import { virtualServicesForGateway } from '../virtualServices';
import { gatewaysForRouter, mergeGateways } from './merge';
import { serverPortKey, type GatewayView, type GwServer, type HttpBinding } from './types';

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
  options: Pick<TranslateOptions, 'domainSuffix'> & Partial<Pick<TranslateOptions, 'defaultVirtualServiceExportTo'>>,
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
