// One outbound listener from its collected chains (listener.go: buildListenerFromEntry).
import type { FilterChainJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { Protocol, ServicePort } from '../../../model/mesh';
import { listenerName } from '../../names';
import type { ProxyView } from '../../view/types';
import { isMatchAll, toFilterChainMatch, type ChainOpts } from './chainOpts';
import { delimitedStatPrefix, httpInspector, tlsInspector } from './filters';
import { hcmFilter } from './hcm';
import { completeNetworkFilters } from './istioFilters';
import { catchAllFilters, PASSTHROUGH_FILTER_CHAIN } from './virtualOutbound';

/** listener.go outboundListenerEntry. */
export interface OutboundEntry {
  servicePort: ServicePort;
  bind: string;
  chains: ChainOpts[];
  protocol: Protocol;
  /** Built for a port-specific Sidecar egress listener: later (catch-all) services neither add nor merge. */
  locked?: boolean;
}

/** HTTP route configs the listener's HCM chains ask RDS for. */
export interface RouteRefs {
  ports: Set<number>;
  sniffed: Map<string, { hostname: string; port: number }>;
}

/** PILOT_GATEWAY_TRANSPORT_SOCKET_CONNECT_TIMEOUT (15s); buildListenerFromEntry sets it on every chain it builds. */
const TRANSPORT_SOCKET_CONNECT_TIMEOUT = '15s';

export function buildOutboundListener(view: ProxyView, e: OutboundEntry, refs: RouteRefs): ListenerJson {
  const port = e.servicePort.port;
  const name = listenerName(e.bind, port);
  const l: ListenerJson = {
    name,
    address: { socketAddress: { address: e.bind, portValue: port } },
    trafficDirection: 'OUTBOUND',
    continueOnListenerFiltersTimeout: true,
    // Sidecars bind only 15001/15006; per-port listeners are reached through use_original_dst.
    bindToPort: false,
  };
  const needTls = e.chains.some((c) => (c.sniHosts?.length ?? 0) > 0);
  const needHttp = e.chains.some((c) => (c.applicationProtocols?.length ?? 0) > 0);
  const listenerFilters = [...(needTls ? [tlsInspector()] : []), ...(needHttp ? [httpInspector()] : [])];
  if (listenerFilters.length) l.listenerFilters = listenerFilters;
  // With an http_inspector: MeshConfig protocolDetectionTimeout (default 0s); without: 0s.
  l.listenerFiltersTimeout = needHttp ? view.options.protocolDetectionTimeout : '0s';

  const chains: FilterChainJson[] = [];
  let defaultChain: FilterChainJson | undefined;
  for (const opt of e.chains) {
    const chain: FilterChainJson = { transportSocketConnectTimeout: TRANSPORT_SOCKET_CONNECT_TIMEOUT };
    if (opt.metadata) chain.metadata = opt.metadata;
    if (!opt.http) {
      chain.filters = completeNetworkFilters('SIDECAR_OUTBOUND', opt.networkFilters ?? []);
    } else {
      const statPrefix = delimitedStatPrefix(`outbound_${name}`);
      chain.filters = [hcmFilter({ direction: 'outbound', statPrefix, rds: opt.http.rds, protocol: opt.http.protocol })];
      if (opt.http.sniffedHost !== undefined) {
        refs.sniffed.set(opt.http.rds, { hostname: opt.http.sniffedHost, port });
      } else {
        refs.ports.add(port);
      }
    }
    if (isMatchAll(opt)) {
      defaultChain = chain;
    } else {
      const m = toFilterChainMatch(opt);
      if (m) chain.filterChainMatch = m;
      chains.push(chain);
    }
  }
  // A lone match-all chain is the listener's only chain; a listener without one falls through to
  // PassthroughFilterChain (istio#26079: traffic that half-matches must not be dropped).
  if (defaultChain && chains.length === 0) {
    chains.push(defaultChain);
    defaultChain = undefined;
  } else if (!defaultChain) {
    defaultChain = { filterChainMatch: {}, name: PASSTHROUGH_FILTER_CHAIN, filters: catchAllFilters(view) };
  }
  l.filterChains = chains;
  if (defaultChain) l.defaultFilterChain = defaultChain;
  return l;
}
