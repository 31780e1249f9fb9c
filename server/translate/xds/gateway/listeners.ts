// Gateway LDS (networking/core/gateway.go:buildGatewayListeners, buildGatewayTCPBasedFilterChains,
// createGatewayHTTPFilterChainOpts; listener.go:buildGatewayListener): one listener `<bind>_<resolved port>`
// per merged server port (servers of different protocols on one port/bind share it), traffic direction
// OUTBOUND, bound to the port, no default chain, a TLS inspector when some chain matches on SNI or
// offers ALPN. HTTP ports get one HCM chain on `http.<port>`; other ports one chain per server: HTTPS
// termination (HCM + TLS context, SNI = server hosts), TCP / TLS termination (tcp_proxy), TLS passthrough
// (tcp_proxy per `tls` match, SNI = sniHosts).
import type { FilterChainJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { LoadError } from '../../../model/mesh';
import { parseProtocol } from '../../../model/parse/protocol';
import { listenerName } from '../../names';
import type { GatewayView, ProxyView } from '../../view/types';
import { toFilterChainMatch } from '../listeners/chainOpts';
import type { BuildCtx } from '../listeners/context';
import { delimitedStatPrefix, tlsInspector } from '../listeners/filters';
import { isHttpProtocol } from '../../../model/protocol';
import type { GatewayChain } from './chain';
import { gatewayHcmFilter } from './hcm';
import { completeNetworkFilters } from '../listeners/istioFilters';
import { inboundAuthz } from '../../authz/inbound';
import { networkChains } from './network';
import { buildGatewayTlsContext, tlsTransportSocket } from './tlsContext';

/** PILOT_GATEWAY_TRANSPORT_SOCKET_CONNECT_TIMEOUT default. */
const TRANSPORT_SOCKET_CONNECT_TIMEOUT = '15s';

/** getWildcardsAndLocalHost: `::` for IPv6-only proxies, else `0.0.0.0`. */
function wildcard(view: ProxyView): string {
  const ips = view.proxy.ips;
  return ips.length > 0 && ips.every((ip) => ip.includes(':')) ? '::' : '0.0.0.0';
}

export function buildGatewayListeners(
  view: ProxyView,
  gateway: GatewayView,
): { listeners: ListenerJson[]; routeNames: string[]; errors: LoadError[] } {
  const merged = gateway.merged;
  const ctx: BuildCtx = { view, errors: [] };
  const byName = new Map<string, { bind: string; port: number; chains: GatewayChain[] }>();
  const tlsHostsByPort = new Map<number, Map<string, string>>();
  for (const sp of merged.serverPorts) {
    const servers = gateway.serversAt(sp);
    if (!servers) continue;
    const bind = sp.bind || wildcard(view);
    const chains: GatewayChain[] = [];
    if (isHttpProtocol(parseProtocol(sp.protocol))) {
      chains.push({ opts: {}, hcm: { rds: servers.routeName } });
    } else {
      for (const g of servers.servers) {
        const info = merged.tlsServerInfo.get(g);
        if (g.httpsTermination && g.server.tls) {
          const hcm: GatewayChain['hcm'] = { rds: info?.routeName ?? '' };
          if (g.server.name) hcm.statPrefix = g.server.name;
          chains.push({ opts: { sniHosts: [...(info?.sniHosts ?? [])] }, tls: buildGatewayTlsContext(g.server.tls), hcm });
        } else {
          chains.push(...networkChains(ctx, g, sp.number, gateway, info?.sniHosts ?? [], tlsHostsByPort));
        }
      }
    }
    const name = listenerName(bind, sp.number);
    const entry = byName.get(name);
    if (entry) entry.chains.push(...chains);
    else byName.set(name, { bind, port: sp.number, chains });
  }

  // AuthorizationPolicies selecting the gateway: RBAC in each HCM, network RBAC before tcp_proxy (gateway.go).
  const authz = inboundAuthz(view);
  const listeners: ListenerJson[] = [];
  const routeNames = new Set<string>();
  for (const [name, e] of byName) {
    if (e.chains.length === 0) {
      ctx.errors.push({
        severity: 'warning',
        message: `gateway listener ${name} omitted: no filter chain (istiod: "must have more than 0 chains")`,
        object: `Proxy ${view.proxy.id}`,
      });
      continue;
    }
    const needInspector = e.chains.some(
      (c) => (c.opts.sniHosts?.length ?? 0) > 0 || (c.tls?.commonTlsContext?.alpnProtocols?.length ?? 0) > 0,
    );
    const l: ListenerJson = {
      name,
      address: { socketAddress: { address: e.bind, portValue: e.port } },
      trafficDirection: 'OUTBOUND',
    };
    if (needInspector) l.listenerFilters = [tlsInspector()];
    l.filterChains = e.chains.map((c) => {
      const fc: FilterChainJson = {};
      const m = toFilterChainMatch(c.opts);
      if (m) fc.filterChainMatch = m;
      if (c.hcm) {
        routeNames.add(c.hcm.rds);
        fc.filters = [
          ...(c.filters ?? []),
          gatewayHcmFilter(c.hcm.statPrefix ?? delimitedStatPrefix(`outbound_${name}`), c.hcm.rds, authz.http),
        ];
      } else fc.filters = completeNetworkFilters('GATEWAY', c.filters ?? [], { mx: c.mx, authz: authz.network });
      if (c.tls) fc.transportSocket = tlsTransportSocket(c.tls);
      fc.transportSocketConnectTimeout = TRANSPORT_SOCKET_CONNECT_TIMEOUT;
      return fc;
    });
    listeners.push(l);
  }
  return { listeners, routeNames: [...routeNames], errors: ctx.errors };
}
