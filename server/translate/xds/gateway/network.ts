// Network (non-HTTP) filter chains of gateway servers (networking/core/gateway.go:
// createGatewayTCPFilterChainOpts, buildGatewayNetworkFiltersFromTCPRoutes,
// buildGatewayNetworkFiltersFromTLSRoutes, builtAutoPassthroughFilterChains, pickMatchingGatewayHosts,
// l4MultiMatch / l4SingleMatch). tcp_proxy filters come from the sidecar builder (buildOutboundNetworkFilters)
// with the *server* port as the destination port default.
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { L4MatchAttributes } from '../../../model/istio';
import { hostSubsetOf } from '../../../model/host';
import type { GatewayView, GwServer } from '../../view/types';
import { configError, type BuildCtx } from '../listeners/context';
import { routeFilters, singleDestinationFilters } from '../listeners/tcpProxy';
import type { GatewayChain } from './chain';
import { buildGatewayTlsContext } from './tlsContext';

/** listener.go allIstioMtlsALPNs: AUTO_PASSTHROUGH chains only accept Istio mTLS. */
export const ISTIO_MTLS_ALPNS: readonly string[] = ['istio', 'istio-peer-exchange', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'];

/** l4SingleMatch: match.port (if set) = server port, match.gateways (if set) holds the gateway. */
const l4Match = (m: L4MatchAttributes | undefined, g: GwServer): boolean =>
  (!m?.port || m.port === g.server.port.number) && (!m?.gateways?.length || m.gateways.includes(g.gatewayName));

/** l4MultiMatch: no predicates match; otherwise any predicate. */
const l4MultiMatch = (ms: readonly L4MatchAttributes[] | undefined, g: GwServer): boolean => !ms?.length || ms.some((m) => l4Match(m, g));

/** buildGatewayNetworkFiltersFromTCPRoutes: the first bound VirtualService tcp route that applies. */
function tcpRouteFilters(ctx: BuildCtx, g: GwServer, gateway: GatewayView): FilterJson[] | undefined {
  for (const vs of gateway.l4Bindings(g)) {
    const tcp = vs.spec.tcp ?? [];
    for (let i = 0; i < tcp.length; i++) {
      const r = tcp[i];
      if (!r || !l4MultiMatch(r.match, g)) continue;
      if (!r.route?.length) continue;
      return routeFilters(ctx, r.route, g.server.port.number, vs, `spec.tcp[${i}].route`);
    }
  }
  return undefined;
}

/** createGatewayTCPFilterChainOpts for one non-HTTPS-terminating server. */
export function networkChains(
  ctx: BuildCtx,
  g: GwServer,
  listenerPort: number,
  gateway: GatewayView,
  sniHosts: readonly string[],
  tlsHostsByPort: Map<number, Map<string, string>>,
): GatewayChain[] {
  const tls = g.server.tls;
  if (!tls || (tls.mode !== 'PASSTHROUGH' && tls.mode !== 'AUTO_PASSTHROUGH')) {
    const filters = tcpRouteFilters(ctx, g, gateway);
    if (filters?.length) {
      const mx = tls?.mode === 'ISTIO_MUTUAL';
      return [tls ? { opts: { sniHosts: [...sniHosts] }, tls: buildGatewayTlsContext(tls), filters, mx } : { opts: {}, filters }];
    }
    ctx.errors.push(
      configError(
        g.gateway,
        `spec.servers[${g.index}]`,
        `no VirtualService tcp route bound to gateway ${g.gatewayName} matches this server: no filter chain`,
      ),
    );
    return [];
  }
  if (tls.mode === 'AUTO_PASSTHROUGH') return autoPassthroughChains(ctx, sniHosts);
  const chains: GatewayChain[] = [];
  let known = tlsHostsByPort.get(listenerPort);
  if (!known) tlsHostsByPort.set(listenerPort, (known = new Map()));
  const bind = g.server.bind ?? '';
  for (const vs of gateway.l4Bindings(g)) {
    (vs.spec.tls ?? []).forEach((r, ri) => {
      if (!r?.route?.length) return;
      (r.match ?? []).forEach((m, mi) => {
        if (!l4Match(m, g)) return;
        const sni = Array.isArray(m.sniHosts) ? m.sniHosts : [];
        const dup = sni.filter((h) => known?.get(h) === bind);
        if (dup.length) {
          ctx.errors.push(
            configError(
              vs,
              `spec.tls[${ri}].match[${mi}].sniHosts`,
              `skipped on gateway ${g.gatewayName} port ${g.server.port.number}: duplicate SNI host(s) ${dup.join(', ')}`,
            ),
          );
          return;
        }
        for (const h of sni) known?.set(h, bind);
        const filters = routeFilters(ctx, r.route ?? [], g.server.port.number, vs, `spec.tls[${ri}].route`);
        if (filters) chains.push({ opts: { sniHosts: [...sni] }, filters });
      });
    });
  }
  return chains;
}

/** builtAutoPassthroughFilterChains: one chain per (service port[, subset]) matching the server hosts, by SNI-DNAT name. */
function autoPassthroughChains(ctx: BuildCtx, hosts: readonly string[]): GatewayChain[] {
  const chains: GatewayChain[] = [];
  for (const service of ctx.view.services) {
    if (service.meshExternal) continue;
    if (!hosts.some((h) => hostSubsetOf(service.hostname, h))) continue;
    const dr = ctx.view.destinationRule(service.hostname)?.spec;
    for (const port of service.ports) {
      if (port.protocol === 'UDP') continue;
      const name = (subset: string) => `outbound_.${port.port}_.${subset}_.${service.hostname}`;
      chains.push({
        opts: { sniHosts: [name('')], applicationProtocols: [...ISTIO_MTLS_ALPNS] },
        filters: singleDestinationFilters(name(''), '', dr),
      });
      for (const s of dr?.subsets ?? []) {
        if (!s?.name) continue;
        chains.push({
          opts: { sniHosts: [name(s.name)], applicationProtocols: [...ISTIO_MTLS_ALPNS] },
          filters: singleDestinationFilters(name(s.name), s.name, dr),
        });
      }
    }
  }
  return chains;
}
