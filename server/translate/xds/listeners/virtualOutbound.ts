// The virtualOutbound listener (listener_builder.go: buildVirtualOutboundListener,
// buildOutboundCatchAllNetworkFilterChains, blackholeFilterChain, buildOutboundCatchAllNetworkFiltersOnly).
// iptables redirects every outbound connection to 0.0.0.0:15001; use_original_dst hands it to the
// listener of its original ip:port, and whatever has none lands on these chains.
// Istio sets no listener filters here (use_original_dst replaces original_dst); only the
// ALLOW_ANY_DYNAMIC_DNS mode (not modelled) adds an http_inspector and an HTTP chain.
// The istio.stats TCP filters istiod puts before tcp_proxy are Istio-private and omitted.
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import { BLACKHOLE_CLUSTER, PASSTHROUGH_CLUSTER, VIRTUAL_OUTBOUND_LISTENER, VIRTUAL_OUTBOUND_PORT } from '../../names';
import type { ProxyView } from '../../view/types';
import { tcpProxyTo } from './filters';
import { tcpStats } from './istioFilters';
import { destinationCluster } from './tcpProxy';

export const VIRTUAL_OUTBOUND_BLACKHOLE_CHAIN = 'virtualOutbound-blackhole';
export const VIRTUAL_OUTBOUND_CATCHALL_CHAIN = 'virtualOutbound-catchall-tcp';
export const PASSTHROUGH_FILTER_CHAIN = 'PassthroughFilterChain';

/**
 * Where unknown outbound traffic goes: PassthroughCluster (ALLOW_ANY; or the Sidecar's egressProxy
 * cluster), BlackHoleCluster (REGISTRY_ONLY).
 */
export function catchAllCluster(view: ProxyView): string {
  if (view.outboundTrafficPolicy === 'REGISTRY_ONLY') return BLACKHOLE_CLUSTER;
  const egress = view.sidecar?.spec.outboundTrafficPolicy?.egressProxy;
  if (egress?.host) return destinationCluster(egress, undefined, 0);
  return PASSTHROUGH_CLUSTER;
}

/** The tcp_proxy of catch-all chains: stat prefix = cluster name. */
export const catchAllFilters = (view: ProxyView): FilterJson[] => [tcpStats('SIDECAR_OUTBOUND'), tcpProxyTo(catchAllCluster(view))];

export function buildVirtualOutboundListener(view: ProxyView): ListenerJson {
  return {
    name: VIRTUAL_OUTBOUND_LISTENER,
    address: { socketAddress: { address: '0.0.0.0', portValue: VIRTUAL_OUTBOUND_PORT } },
    useOriginalDst: true,
    filterChains: [
      {
        // Connections addressed to 15001 itself would loop: blackhole them.
        name: VIRTUAL_OUTBOUND_BLACKHOLE_CHAIN,
        filterChainMatch: { destinationPort: VIRTUAL_OUTBOUND_PORT },
        filters: [tcpStats('SIDECAR_OUTBOUND'), tcpProxyTo(BLACKHOLE_CLUSTER)],
      },
      { name: VIRTUAL_OUTBOUND_CATCHALL_CHAIN, filters: catchAllFilters(view) },
    ],
    trafficDirection: 'OUTBOUND',
    // MAX_CONNECTIONS_PER_SOCKET_EVENT_LOOP defaults to 1.
    maxConnectionsToAcceptPerSocketEvent: 1,
  };
}
