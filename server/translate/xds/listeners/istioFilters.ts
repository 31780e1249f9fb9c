// The Istio filters istiod puts around the Envoy ones, default MeshConfig and feature flags
// (listener_builder.go buildHTTPConnectionManager + appendMxFilter; networkfilter.go buildCompleteNetworkFilters;
// listener_inbound.go buildInboundNetworkFiltersForHTTP / buildInboundBlackhole; pilot/pkg/xds/filters/filters.go;
// model/telemetry.go generateStatsConfig with the default `prometheus` metrics provider).
//
// HTTP filter order (buildHTTPConnectionManager): istio.metadata_exchange, ext_authz (CUSTOM), authn (JWT: none
// without RequestAuthentication), RBAC, [grpc_web on GRPC-Web ports: not modelled], envoy.filters.http.grpc_stats,
// istio.alpn (all but sidecar inbound), fault, cors, istio.stats, router.
// Network filter order (buildCompleteNetworkFilters): istio.metadata_exchange (inbound; gateway ISTIO_MUTUAL
// tcp servers), RBAC, istio.stats, the terminal filter. Inbound HTTP chains: metadata exchange, then the HCM.
//
// Istio-private configs (not in the Envoy API) are carried opaquely as `udpa.type.v1.TypedStruct` {type_url,
// value}, as real config dumps show them: io.istio.http.peer_metadata.Config (HTTP metadata exchange),
// envoy.tcp.metadataexchange.config.MetadataExchange (TCP metadata exchange), stats.PluginConfig (istio.stats)
// and istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig (istio.alpn; istiod sends the last two as
// their own protos, Envoy accepts either form). Not modelled: the upstream metadata-exchange cluster filter.
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { HttpFilterJson } from '../../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import { corsFilter, faultFilter, routerFilter, typed } from './filters';

/** istionetworking.ListenerClass as the filters need it. */
export type ListenerClass = 'SIDECAR_INBOUND' | 'SIDECAR_OUTBOUND' | 'GATEWAY';

export const TYPED_STRUCT = 'type.googleapis.com/udpa.type.v1.TypedStruct';
export const MX_FILTER = 'istio.metadata_exchange';
export const STATS_FILTER = 'istio.stats';
export const ALPN_FILTER = 'istio.alpn';
export const GRPC_STATS_FILTER = 'envoy.filters.http.grpc_stats';
const PEER_METADATA = 'type.googleapis.com/io.istio.http.peer_metadata.Config';
const TCP_MX = 'type.googleapis.com/envoy.tcp.metadataexchange.config.MetadataExchange';
const STATS = 'type.googleapis.com/stats.PluginConfig';
const ALPN = 'type.googleapis.com/istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig';
const GRPC_STATS = 'type.googleapis.com/envoy.extensions.filters.http.grpc_stats.v3.FilterConfig';

type Struct = { [k: string]: unknown };
/** protoconv.TypedStructWithFields: an Istio-private config as a TypedStruct Any. */
export const typedStruct = (typeUrl: string, value: Struct) => typed(TYPED_STRUCT, { typeUrl, value } as object);

/** filters.go SidecarInboundMetadataFilter / SidecarOutboundMetadataFilter (gateways get the outbound one). */
function httpMx(cls: ListenerClass): HttpFilterJson {
  const side = cls === 'SIDECAR_INBOUND' ? 'downstream' : 'upstream';
  return {
    name: MX_FILTER,
    typedConfig: typedStruct(PEER_METADATA, {
      [`${side}_discovery`]: [{ istio_headers: {} }, { workload_discovery: {} }],
      [`${side}_propagation`]: [{ istio_headers: {} }],
    }),
  };
}

/** filters.go GrpcStats. */
const grpcStats = (): HttpFilterJson => ({
  name: GRPC_STATS_FILTER,
  typedConfig: typed(GRPC_STATS, { emitFilterState: true, statsForAllMethods: false }),
});

/** filters.go Alpn: mtlsHTTP10ALPN / mtlsHTTP11ALPN / mtlsHTTP2ALPN. */
const alpn = (): HttpFilterJson => ({
  name: ALPN_FILTER,
  typedConfig: typedStruct(ALPN, {
    alpn_override: [
      { upstream_protocol: 'HTTP10', alpn_override: ['istio-http/1.0', 'istio', 'http/1.0'] },
      { upstream_protocol: 'HTTP11', alpn_override: ['istio-http/1.1', 'istio', 'http/1.1'] },
      { upstream_protocol: 'HTTP2', alpn_override: ['istio-h2', 'istio', 'h2'] },
    ],
  }),
});

/** telemetry.go generateStatsConfig: disableHostHeaderFallback for inbound and gateway classes. */
const statsConfig = (cls: ListenerClass) => typedStruct(STATS, cls === 'SIDECAR_OUTBOUND' ? {} : { disable_host_header_fallback: true });

/** The whole HTTP filter chain of an HCM of this class; `authz` are the ext_authz/RBAC filters, in their order. */
export function istioHttpFilters(cls: ListenerClass, authz: readonly HttpFilterJson[] = []): HttpFilterJson[] {
  return [
    httpMx(cls),
    ...authz,
    grpcStats(),
    ...(cls === 'SIDECAR_INBOUND' ? [] : [alpn()]),
    faultFilter(),
    corsFilter(),
    { name: STATS_FILTER, typedConfig: statsConfig(cls) },
    routerFilter(),
  ];
}

/** filters.go TCPListenerMx. */
export const tcpMx = (): FilterJson => ({
  name: MX_FILTER,
  typedConfig: typedStruct(TCP_MX, { protocol: 'istio-peer-exchange', enable_discovery: true }),
});

/** buildMetricsNetworkFilters: istio.stats for TCP. */
export const tcpStats = (cls: ListenerClass): FilterJson => ({ name: STATS_FILTER, typedConfig: statsConfig(cls) });

/**
 * buildCompleteNetworkFilters: [metadata exchange], RBAC, istio.stats, then the terminal filters.
 * An empty terminal stack stays empty (the chain is dropped by its builder).
 */
export function completeNetworkFilters(
  cls: ListenerClass,
  terminal: readonly FilterJson[],
  o: { mx?: boolean; authz?: readonly FilterJson[] } = {},
): FilterJson[] {
  if (terminal.length === 0) return [];
  return [...(o.mx ? [tcpMx()] : []), ...(o.authz ?? []), tcpStats(cls), ...terminal];
}
