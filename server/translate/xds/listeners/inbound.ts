// The virtualInbound listener (listener_inbound.go: buildInboundListeners, inboundVirtualListener,
// getFilterChainsByServicePort, buildInboundPassthroughChains, buildInboundBlackhole, inboundChainForOpts,
// buildInboundNetworkFilters(ForHTTP); filterchain_options.go).
//
// mTLS: istiod builds the chains per PeerAuthentication mode; with none the mode is PERMISSIVE, which
// adds mTLS chains (ALPN istio-*, transport "tls", a DownstreamTlsContext with SDS certificates).
// meshscope has no PeerAuthentication or certificates, so it models PERMISSIVE *plaintext only*: it
// emits the PERMISSIVE chains that do not terminate TLS (plaintext HTTP/TCP, and TLS passed through
// as TCP) and leaves out the mTLS-terminating ones. The TLS inspector is then derived from these
// chains (so HTTP-only ports are excluded from it, where istiod's mTLS chains would keep it on).
// Chains come from the proxy's service targets, or, when the Sidecar in force has ingress listeners, from those
// (inboundIngress.ts); a chain whose ingress listener says captureMode NONE becomes its own listener
// (inboundCustomListener) instead of a chain of virtualInbound.
// Omitted Istio-private filters: istio.metadata_exchange before each chain's terminal filter, and
// the istio.stats TCP filters.
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
import { delimitedStatPrefix, PLAINTEXT_HTTP_ALPNS, RAW_BUFFER_TRANSPORT, RESERVED_PORTS, TLS_TRANSPORT, tcpProxyTo } from './filters';
import { hcmFilter } from './hcm';
import { inboundListenerFilters } from './inboundFilters';
import { inboundRouteConfig } from './inboundRoute';
import { listenerProtocol, type ListenerProtocol } from '../../../model/protocol';
import type { ChainConfig } from './inboundChainConfig';
import { sidecarIngressChainConfigs } from './inboundIngress';

export const VIRTUAL_INBOUND_BLACKHOLE_CHAIN = 'virtualInbound-blackhole';
export const VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN = 'virtualInbound-catchall-http';
const WILDCARD = '0.0.0.0';

interface MatchOption {
  protocol: 'HTTP' | 'TCP';
  transportProtocol: string;
  applicationProtocols?: readonly string[];
}

/** The non-TLS-terminating entries of filterchain_options.go's PERMISSIVE option lists, in their order. */
function plaintextPermissiveOptions(lp: ListenerProtocol): MatchOption[] {
  if (lp === 'HTTP') return [{ protocol: 'HTTP', transportProtocol: RAW_BUFFER_TRANSPORT }];
  if (lp === 'AUTO') {
    return [
      { protocol: 'HTTP', transportProtocol: RAW_BUFFER_TRANSPORT, applicationProtocols: PLAINTEXT_HTTP_ALPNS },
      { protocol: 'TCP', transportProtocol: RAW_BUFFER_TRANSPORT },
      { protocol: 'TCP', transportProtocol: TLS_TRANSPORT },
    ];
  }
  // TCP, and (as getFilterChainMatchOptions' default case) anything else.
  return [
    { protocol: 'TCP', transportProtocol: TLS_TRANSPORT },
    { protocol: 'TCP', transportProtocol: RAW_BUFFER_TRANSPORT },
  ];
}

function chainName(cc: ChainConfig, p: 'HTTP' | 'TCP'): string {
  if (cc.passthrough) return p === 'HTTP' ? VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN : VIRTUAL_INBOUND_LISTENER;
  return listenerName(cc.bind, cc.targetPort);
}

function httpFilters(cc: ChainConfig): FilterJson[] {
  const statPrefix = delimitedStatPrefix(cc.passthrough ? cc.clusterName : `inbound_${listenerName(cc.bind, cc.targetPort)}`);
  // Service chains use the RDS module's inbound route config; the passthrough one is built here.
  const routeConfig = cc.target
    ? buildInboundRouteConfig(cc.target)
    : inboundRouteConfig({ clusterName: cc.clusterName, servicePort: cc.servicePort, hostname: cc.hostname, protocol: cc.protocol });
  return [hcmFilter({ direction: 'inbound', statPrefix, routeConfig, protocol: cc.protocol })];
}

/** buildInboundNetworkFilters: tcp_proxy with the cluster name as stat prefix. */
const tcpFilters = (cc: ChainConfig): FilterJson[] => [tcpProxyTo(cc.clusterName)];

function chainsFor(cc: ChainConfig, options: MatchOption[]): FilterChainJson[] {
  return options.map((o) => {
    const match: FilterChainJson['filterChainMatch'] = {};
    if (cc.targetPort > 0) match.destinationPort = cc.targetPort;
    if (o.applicationProtocols?.length) match.applicationProtocols = [...o.applicationProtocols];
    match.transportProtocol = o.transportProtocol;
    const chain: FilterChainJson = {
      filterChainMatch: match,
      filters: o.protocol === 'HTTP' ? httpFilters(cc) : tcpFilters(cc),
      name: chainName(cc, o.protocol),
    };
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
    filters: [tcpProxyTo(BLACKHOLE_CLUSTER)],
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
  const chains: FilterChainJson[] = [blackholeChain(), ...chainsFor(PASSTHROUGH, plaintextPermissiveOptions('AUTO'))];
  const custom: ListenerJson[] = [];
  const timeout = ctx.view.options.protocolDetectionTimeout;
  for (const cc of sidecarIngressChainConfigs(ctx) ?? serviceChainConfigs(ctx)) {
    const own = chainsFor(cc, plaintextPermissiveOptions(listenerProtocol(cc.protocol)));
    if (cc.bindToPort) custom.push(inboundListener(listenerName(cc.bind, cc.targetPort), cc.bind, cc.targetPort, own, true, timeout));
    else chains.push(...own);
  }
  return [inboundListener(VIRTUAL_INBOUND_LISTENER, WILDCARD, VIRTUAL_INBOUND_PORT, chains, false, timeout), ...custom];
}

/** The virtualInbound listener alone. */
export function buildVirtualInboundListener(ctx: BuildCtx): ListenerJson {
  return buildInboundListeners(ctx)[0] as ListenerJson;
}
