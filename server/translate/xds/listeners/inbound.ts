// The virtualInbound listener (listener_inbound.go: buildInboundListeners, inboundVirtualListener,
// getFilterChainsByServicePort, buildInboundPassthroughChains, buildInboundBlackhole, inboundChainForOpts,
// buildInboundNetworkFilters(ForHTTP); filterchain_options.go).
//
// mTLS: the chains of each port follow the PeerAuthentication mode in force for it (../../security:
// ComposePeerAuthentication, GetMutualTLSModeForPort; PERMISSIVE without any policy): STRICT keeps only
// TLS-terminating chains, PERMISSIVE adds the plaintext ones, DISABLE has only plaintext. TLS chains carry
// istiod's DownstreamTlsContext (SDS `default` / `ROOTCA`, client certificates required). Sidecar ingress
// `tls` (user TLS on a DISABLE port) is not modelled.
// Chains come from the proxy's service targets, or, when the Sidecar in force has ingress listeners, from those
// (inboundIngress.ts); a chain whose ingress listener says captureMode NONE becomes its own listener
// (inboundCustomListener) instead of a chain of virtualInbound.
// Istio's own filters (metadata exchange first, istio.stats before tcp_proxy) come from ./istioFilters.
import type { FilterChainJson, FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import {
  BLACKHOLE_CLUSTER,
  inboundCluster,
  INBOUND_PASSTHROUGH_CLUSTER,
  listenerName,
  VIRTUAL_INBOUND_LISTENER,
  VIRTUAL_INBOUND_PORT,
} from '../../names';
import { buildInboundRouteConfig } from '../routes/inbound';
import type { BuildCtx } from './context';
import { delimitedStatPrefix, RESERVED_PORTS, tcpProxyTo } from './filters';
import { completeNetworkFilters, tcpMx } from './istioFilters';
import { filterChainMatchOptions, inboundTlsContext, type MatchOption } from '../../security/inboundTls';
import { type MtlsMode, modeForPort } from '../../security/peerAuthentication';
import { passthroughMtls, workloadPeerAuthentication } from '../../security/workload';
import { tlsTransportSocket } from '../gateway/tlsContext';
import { hcmFilter } from './hcm';
import { inboundListenerFilters } from './inboundFilters';
import { inboundRouteConfig } from './inboundRoute';
import { listenerProtocol } from '../../../model/protocol';
import type { ChainConfig } from './inboundChainConfig';
import { sidecarIngressChainConfigs } from './inboundIngress';
import { inboundAuthz, type InboundAuthz } from '../../authz/inbound';

export const VIRTUAL_INBOUND_BLACKHOLE_CHAIN = 'virtualInbound-blackhole';
export const VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN = 'virtualInbound-catchall-http';
const WILDCARD = '0.0.0.0';

function chainName(cc: ChainConfig, p: 'HTTP' | 'TCP'): string {
  if (cc.passthrough) return p === 'HTTP' ? VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN : VIRTUAL_INBOUND_LISTENER;
  return listenerName(cc.bind, cc.targetPort);
}

function httpFilters(cc: ChainConfig, authz: InboundAuthz): FilterJson[] {
  const statPrefix = delimitedStatPrefix(cc.passthrough ? cc.clusterName : `inbound_${listenerName(cc.bind, cc.targetPort)}`);
  // Service chains use the RDS module's inbound route config; the passthrough one is built here.
  const routeConfig = cc.target
    ? buildInboundRouteConfig(cc.target)
    : inboundRouteConfig({ clusterName: cc.clusterName, servicePort: cc.servicePort, hostname: cc.hostname, protocol: cc.protocol });
  // buildInboundNetworkFiltersForHTTP: metadata exchange, then the HCM.
  return [tcpMx(), hcmFilter({ direction: 'inbound', statPrefix, routeConfig, protocol: cc.protocol, authzFilters: authz.http })];
}

/** buildInboundNetworkFilters: metadata exchange, the RBAC network filters, istio.stats, then tcp_proxy with the cluster name as stat prefix. */
const tcpFilters = (cc: ChainConfig, authz: InboundAuthz): FilterJson[] =>
  completeNetworkFilters('SIDECAR_INBOUND', [tcpProxyTo(cc.clusterName)], { mx: true, authz: authz.network });

/** inboundChainForOpts: one chain per option; TLS options get the mode's DownstreamTlsContext (ToTransportSocket). */
function chainsFor(cc: ChainConfig, mode: MtlsMode, options: MatchOption[], trustDomain: string, authz: InboundAuthz): FilterChainJson[] {
  return options.map((o) => {
    const match: FilterChainJson['filterChainMatch'] = {};
    if (cc.targetPort > 0) match.destinationPort = cc.targetPort;
    if (o.applicationProtocols?.length) match.applicationProtocols = [...o.applicationProtocols];
    match.transportProtocol = o.transportProtocol;
    const chain: FilterChainJson = {
      filterChainMatch: match,
      filters: o.protocol === 'HTTP' ? httpFilters(cc, authz) : tcpFilters(cc, authz),
    };
    // BuildInboundTLS returns nil for DISABLE: no transport socket even on a TLS option
    if (o.tls && mode !== 'DISABLE') chain.transportSocket = tlsTransportSocket(inboundTlsContext(o.protocol, [trustDomain]));
    chain.name = chainName(cc, o.protocol);
    if (cc.metadata) chain.metadata = cc.metadata;
    return chain;
  });
}

/** getFilterChainsByServicePort: one config per target port, the first (oldest) service wins; sorted by port. */
function serviceChainConfigs(ctx: BuildCtx): ChainConfig[] {
  const byPort = new Map<number, ChainConfig>();
  for (const t of ctx.view.serviceTargets) {
    // Binding 0.0.0.0 on the sidecar's own ports is refused (context.go CanBindToPort).
    if (RESERVED_PORTS.has(t.targetPort)) continue;
    const cc: ChainConfig = {
      clusterName: inboundCluster(t.targetPort),
      targetPort: t.targetPort,
      servicePort: t.port.port,
      protocol: t.port.protocol,
      hostname: t.service.hostname,
      bind: WILDCARD,
      bindToPort: false,
      passthrough: false,
      target: t,
    };
    const old = byPort.get(t.targetPort);
    if (old) {
      if (old.protocol !== cc.protocol && old.hostname !== cc.hostname) {
        ctx.errors.push({
          severity: 'warning',
          object: `${t.service.ref.kind || 'Service'} ${t.service.namespace}/${t.service.name}`,
          message: `conflicting inbound listener on port ${t.targetPort} of proxy ${ctx.view.proxy.id}: ${old.hostname} (${old.protocol}) is used, ${cc.hostname} (${cc.protocol}) is ignored`,
        });
      }
      continue;
    }
    byPort.set(t.targetPort, cc);
  }
  return [...byPort.values()].sort((a, b) => a.targetPort - b.targetPort);
}

/** buildInboundBlackhole: connections addressed to 15006 itself would loop. */
function blackholeChain(): FilterChainJson {
  return {
    name: VIRTUAL_INBOUND_BLACKHOLE_CHAIN,
    filterChainMatch: { destinationPort: VIRTUAL_INBOUND_PORT },
    filters: completeNetworkFilters('SIDECAR_INBOUND', [tcpProxyTo(BLACKHOLE_CLUSTER)], { mx: true }),
  };
}

const PASSTHROUGH: ChainConfig = {
  clusterName: INBOUND_PASSTHROUGH_CLUSTER,
  targetPort: 0,
  servicePort: 0,
  protocol: 'Unsupported',
  hostname: '',
  bind: WILDCARD,
  bindToPort: false,
  passthrough: true,
};

function inboundListener(
  name: string,
  address: string,
  port: number,
  chains: FilterChainJson[],
  bindToPort: boolean,
  protocolDetectionTimeout: string,
): ListenerJson {
  return {
    name,
    address: { socketAddress: { address, portValue: port } },
    filterChains: chains,
    listenerFilters: inboundListenerFilters(chains, bindToPort),
    // MeshConfig protocolDetectionTimeout (listener_builder.go:buildInboundListeners, listener_inbound.go:
    // buildInboundListener; default 0s: wait for the inspectors, never time out into TCP).
    listenerFiltersTimeout: protocolDetectionTimeout,
    continueOnListenerFiltersTimeout: true,
    trafficDirection: 'INBOUND',
    maxConnectionsToAcceptPerSocketEvent: 1,
  };
}

/**
 * buildInboundListeners: virtualInbound (passthrough chains, then each chain config's chains in port order),
 * followed by a listener per captureMode NONE ingress listener.
 */
export function buildInboundListeners(ctx: BuildCtx): ListenerJson[] {
  const { snapshot, proxy, options } = ctx.view;
  const authz = inboundAuthz(ctx.view);
  const mtls = workloadPeerAuthentication(snapshot, proxy, options);
  const ingress = sidecarIngressChainConfigs(ctx);
  const configs = ingress ?? serviceChainConfigs(ctx);
  // needPerPortPassthroughFilterChain: ports a Sidecar ingress listener (else a service target) already serves
  const covered = ingress ? ingress.map((c) => c.targetPort) : ctx.view.serviceTargets.map((t) => t.targetPort);
  const chains: FilterChainJson[] = [blackholeChain()];
  // buildInboundPassthroughChains: the port-less chains, then port-level PeerAuthentication ports nothing serves
  for (const p of passthroughMtls(mtls, covered)) {
    chains.push(
      ...chainsFor({ ...PASSTHROUGH, targetPort: p.port }, p.mode, filterChainMatchOptions(p.mode, 'AUTO'), options.trustDomain, authz),
    );
  }
  const custom: ListenerJson[] = [];
  const timeout = options.protocolDetectionTimeout;
  for (const cc of configs) {
    const { mode } = modeForPort(mtls, cc.targetPort);
    const own = chainsFor(cc, mode, filterChainMatchOptions(mode, listenerProtocol(cc.protocol)), options.trustDomain, authz);
    if (cc.bindToPort) custom.push(inboundListener(listenerName(cc.bind, cc.targetPort), cc.bind, cc.targetPort, own, true, timeout));
    else chains.push(...own);
  }
  return [inboundListener(VIRTUAL_INBOUND_LISTENER, WILDCARD, VIRTUAL_INBOUND_PORT, chains, false, timeout), ...custom];
}

/** The virtualInbound listener alone. */
export function buildVirtualInboundListener(ctx: BuildCtx): ListenerJson {
  return buildInboundListeners(ctx)[0] as ListenerJson;
}
