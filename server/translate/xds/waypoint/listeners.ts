// A waypoint's listeners (listener_waypoint.go buildWaypointInbound): `connect_terminate` (HBONE on 15008, CONNECT →
// main_internal), `main_internal` (internal listener: one chain per bound Service port, named by its inbound-vip
// cluster, chosen by destination IP → port [→ application protocol]; plus `direct-tcp` / `direct-http` for bound
// workloads' IPs) and `connect_originate` (internal listener tunnelling to the destination over HBONE).
// Left out as elsewhere in meshscope: Istio-private filters (metadata exchange, connect_authority, stats,
// peer metadata) and access logs. Pure.
import type { FilterChainJson, FilterJson, ListenerFilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../types';
import type { LoadError, ServiceModel, ServicePort } from '../../../model/mesh';
import { isHttpProtocol, isTlsProtocol } from '../../../model/protocol';
import { EXT } from '../../../envoy/typeUrls';
import { buildHttpRbacFilters, buildNetworkRbacFilters } from '../../authz/builder';
import type { ProxyView } from '../../view/types';
import {
  delimitedStatPrefix,
  HCM_FILTER,
  httpInspector,
  originalDst,
  routerFilter,
  tcpProxyFilter,
  tlsInspector,
  typed,
} from '../listeners/filters';
import { buildHcm } from '../listeners/hcm';
import { excludePorts } from '../listeners/inboundFilters';
import type { RouteSourceSink } from '../../routeSources';
import { CONNECT_TERMINATE, ENCAP, HBONE_PORT, inboundVipCluster, MAIN_INTERNAL } from './names';
import { waypointPolicies } from './authz';
import { waypointRouteConfig } from './routes';
import { defaultOutboundRoute } from '../routes/defaultRoute';
import { MAX_DIRECT_RESPONSE_BODY_BYTES } from '../routes/sidecarRouteConfigs';
import { waypointTcpProxy } from './tcpRoutes';
import { connectTlsContext } from '../hbone/tls';
import { connectOriginateListener } from '../hbone/connectOriginate';
import type { WaypointResources } from './resources';

const T_STRING = 'type.googleapis.com/google.protobuf.StringValue';
const T_IP_MATCHER = 'type.googleapis.com/xds.type.matcher.v3.IPMatcher';
const T_NET = 'type.googleapis.com/envoy.extensions.matching.common_inputs.network.v3';
const DESTINATION_IP = { name: 'ip', typedConfig: { '@type': `${T_NET}.DestinationIPInput` } };
const DESTINATION_PORT = { name: 'port', typedConfig: { '@type': `${T_NET}.DestinationPortInput` } };
const APP_PROTOCOL = { name: 'application-protocol', typedConfig: { '@type': `${T_NET}.ApplicationProtocolInput` } };

type OnMatch = Record<string, unknown>;
/** match.ToChain: an action naming the filter chain. */
const toChain = (name: string): OnMatch => ({ action: { name, typedConfig: { '@type': T_STRING, value: name } } });
const toMatcher = (matcher: unknown): OnMatch => ({ matcher });
/** match.NewAppProtocol: `'h2c'` / `'http/1.1'` → HTTP, otherwise TCP. */
const appProtocol = (tcp: string, http: string) => ({
  matcherTree: { input: APP_PROTOCOL, exactMatchMap: { map: { "'h2c'": toChain(http), "'http/1.1'": toChain(http) } } },
  onNoMatch: toChain(tcp),
});

/** util.ConvertAddressToCidr. */
function cidr(ip: string): { addressPrefix: string; prefixLen: number } {
  const [addr = ip, len] = ip.split('/');
  return { addressPrefix: addr, prefixLen: len !== undefined ? Number(len) : addr.includes(':') ? 128 : 32 };
}

export interface WaypointListenerInput {
  view: ProxyView;
  res: WaypointResources;
  errors: LoadError[];
  routeSources?: RouteSourceSink;
}

/** buildWaypointInboundConnectTerminate: TLS (client cert required), HCM with a CONNECT route to main_internal. */
function connectTerminate(): ListenerJson {
  const hcm = {
    statPrefix: CONNECT_TERMINATE,
    routeConfig: {
      name: 'default',
      virtualHosts: [
        {
          name: 'default',
          domains: ['*'],
          routes: [
            {
              match: { connectMatcher: {} },
              route: { cluster: MAIN_INTERNAL, upgradeConfigs: [{ upgradeType: 'CONNECT', connectConfig: {} }] },
            },
          ],
        },
      ],
    },
    httpFilters: [routerFilter()],
    useRemoteAddress: false,
    forwardClientCertDetails: 'APPEND_FORWARD',
    setCurrentClientCertDetails: { subject: true, uri: true, dns: true },
    serverName: 'istio-envoy',
    streamIdleTimeout: '0s',
    upgradeConfigs: [{ upgradeType: 'CONNECT' }],
    http2ProtocolOptions: { allowConnect: true, maxConcurrentStreams: 100, connectionKeepalive: { interval: '10s', timeout: '20s' } },
  };
  return {
    name: CONNECT_TERMINATE,
    address: { socketAddress: { address: '0.0.0.0', portValue: HBONE_PORT } },
    filterChains: [
      {
        name: 'default',
        transportSocket: {
          name: 'tls',
          typedConfig: typed(EXT.downstreamTls, { commonTlsContext: connectTlsContext(), requireClientCertificate: true }),
        },
        filters: [{ name: HCM_FILTER, typedConfig: typed(EXT.hcm, hcm) }],
      },
    ],
    connectionBalanceConfig: { exactBalance: {} },
  } as ListenerJson;
}

/** buildWaypointInboundHTTPFilters: the HCM of a chain with its inline route config; RBAC first (authn/authz before router). */
function httpChainFilters(
  i: WaypointListenerInput,
  svc: ServiceModel | undefined,
  port: number,
  clusterName: string,
  protocol: ServicePort['protocol'],
): FilterJson[] {
  const routeConfig = svc
    ? waypointRouteConfig({
        view: i.view,
        svc,
        port,
        clusterName,
        bound: i.res.byHost,
        errors: i.errors,
        ...(i.routeSources ? { routeSources: i.routeSources } : {}),
      })
    : directRouteConfig(i.view.options.defaultHttpRetryPolicy);
  const authz = buildHttpRbacFilters(waypointPolicies(i.view, svc), undefined, i.view.options.extensionProviders);
  const hcm = buildHcm({
    direction: 'inbound',
    statPrefix: delimitedStatPrefix(`inbound_0.0.0.0_${port}`),
    protocol,
    routeConfig,
    authzFilters: authz,
  });
  return [{ name: HCM_FILTER, typedConfig: typed(EXT.hcm, hcm) }];
}

/** buildSidecarInboundHTTPRouteConfig(nil) for the direct chains: everything to `encap`. */
function directRouteConfig(meshRetry: ProxyView['options']['defaultHttpRetryPolicy']) {
  return {
    name: ENCAP,
    virtualHosts: [
      {
        name: 'inbound|http|0',
        domains: ['*'],
        routes: [defaultOutboundRoute(ENCAP, ':0/*', undefined, meshRetry)],
      },
    ],
    maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY_BYTES,
    validateClusters: false,
  };
}

/** buildWaypointNetworkFilters: RBAC (TCP rules) then tcp_proxy to the chain's cluster or the VirtualService's tcp route. */
function tcpChainFilters(i: WaypointListenerInput, svc: ServiceModel | undefined, port: number, clusterName: string): FilterJson[] {
  const rbac = buildNetworkRbacFilters(waypointPolicies(i.view, svc), undefined, i.view.options.extensionProviders);
  return [
    ...rbac,
    tcpProxyFilter(
      svc ? waypointTcpProxy(i.view, svc, port, clusterName, i.res.byHost) : { statPrefix: clusterName, cluster: clusterName },
    ),
  ];
}

/** buildWaypointInternal. */
function mainInternal(i: WaypointListenerInput): ListenerJson {
  const chains: FilterChainJson[] = [];
  const rangeMatchers: unknown[] = [];
  const portProtocols = new Map<number, 'HTTP' | 'TCP' | 'AUTO'>();
  for (const svc of i.res.services) {
    const addresses = [...new Set(svc.addresses.filter((a) => a !== '0.0.0.0' && a !== ''))].sort();
    const portMap: Record<string, OnMatch> = {};
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      const tcpName = inboundVipCluster('tcp', svc.hostname, port.port);
      const httpName = inboundVipCluster('http', svc.hostname, port.port);
      const tcpChain: FilterChainJson = { name: tcpName, filters: tcpChainFilters(i, svc, port.port, tcpName) };
      const prev = portProtocols.get(port.port);
      if (port.protocol === 'Unsupported') {
        const httpChain: FilterChainJson = { name: httpName, filters: httpChainFilters(i, svc, port.port, httpName, port.protocol) };
        chains.push(tcpChain, httpChain);
        portMap[String(port.port)] = toMatcher(appProtocol(tcpName, httpName));
        portProtocols.set(port.port, 'AUTO');
      } else if (isHttpProtocol(port.protocol)) {
        chains.push({ name: httpName, filters: httpChainFilters(i, svc, port.port, httpName, port.protocol) });
        portMap[String(port.port)] = toChain(httpName);
        portProtocols.set(port.port, prev !== undefined && prev !== 'HTTP' ? 'AUTO' : 'HTTP');
      } else {
        chains.push(tcpChain);
        portMap[String(port.port)] = toChain(tcpName);
        portProtocols.set(port.port, prev !== undefined && prev !== 'TCP' ? 'AUTO' : 'TCP');
      }
    }
    if (Object.keys(portMap).length > 0 && addresses.length > 0)
      rangeMatchers.push({
        ranges: addresses.map(cidr),
        onMatch: toMatcher({ matcherTree: { input: DESTINATION_PORT, exactMatchMap: { map: portMap } } }),
      });
  }
  // Direct pod access: encap, with the TCP and HTTP flavours.
  const directTcp: FilterChainJson = { name: 'direct-tcp', filters: tcpChainFilters(i, undefined, 0, ENCAP) };
  const directHttp: FilterChainJson = { name: 'direct-http', filters: httpChainFilters(i, undefined, 0, ENCAP, 'TCP') };
  chains.push(directTcp, directHttp);
  const workloadIps = i.res.workloads.map((p) => p.ip).filter(Boolean);
  if (workloadIps.length > 0)
    rangeMatchers.push({ ranges: workloadIps.map(cidr), onMatch: toMatcher(appProtocol('direct-tcp', 'direct-http')) });

  // The HTTP inspector is only needed on sniffed ports when no workload (any port) is bound.
  let inspector: ListenerFilterJson = httpInspector();
  if (i.res.workloads.length === 0) {
    const fixed = [...portProtocols]
      .filter(([, p]) => p !== 'AUTO')
      .map(([p]) => p)
      .sort((a, b) => a - b);
    if (fixed.length > 0) inspector = { ...httpInspector(), filterDisabled: excludePorts(fixed) };
  }
  const listenerFilters: ListenerFilterJson[] = [originalDst(), inspector];
  const tls = tlsInspectorFor(i.res.services);
  if (tls) listenerFilters.push(tls);
  return {
    name: MAIN_INTERNAL,
    internalListener: {},
    listenerFilters,
    trafficDirection: 'INBOUND',
    filterChains: chains,
    filterChainMatcher: {
      matcherTree: { input: DESTINATION_IP, customMatch: { name: 'ip', typedConfig: { '@type': T_IP_MATCHER, rangeMatchers } } },
    },
  } as ListenerJson;
}

/** The TLS inspector only when a bound Service has a TLS port; disabled on the ports that are never TLS. */
function tlsInspectorFor(services: readonly ServiceModel[]): ListenerFilterJson | undefined {
  const tlsPorts = new Set<number>();
  const other = new Set<number>();
  for (const s of services) for (const p of s.ports) (isTlsProtocol(p.protocol) ? tlsPorts : other).add(p.port);
  if (tlsPorts.size === 0) return undefined;
  const non = [...other].filter((p) => !tlsPorts.has(p)).sort((a, b) => a - b);
  return non.length ? { ...tlsInspector(), filterDisabled: excludePorts(non) } : tlsInspector();
}

/** buildWaypointInbound: connect_terminate, main_internal, connect_originate. */
export function buildWaypointListeners(i: WaypointListenerInput): ListenerJson[] {
  return [connectTerminate(), mainInternal(i), connectOriginateListener()];
}
