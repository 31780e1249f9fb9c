// Well-known Envoy filters as istiod writes them (pilot/pkg/xds/filters/filters.go) and the
// typed-Any helper. Istio's own filters (istio.metadata_exchange, istio.alpn, istio.stats, grpc_stats) are in
// ./istioFilters.ts; mongo_proxy and the uuid request-id extension are still omitted.
import type { AnyJson } from '@bufbuild/protobuf/wkt';
import type { FilterJson, ListenerFilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { HttpFilterJson } from '../../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import type { TcpProxyJson } from '../../../gen/envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy_pb';
import { EXT } from '../../../envoy/typeUrls';

/** Wraps typed proto3 JSON into an Any (`"@type"` + the message's fields). */
export function typed<T extends object>(typeUrl: string, body: T): AnyJson {
  return { '@type': typeUrl, ...body } as AnyJson;
}

// wellknown names (pkg/wellknown)
export const HCM_FILTER = 'envoy.filters.network.http_connection_manager';
export const TCP_PROXY_FILTER = 'envoy.filters.network.tcp_proxy';
export const ROUTER_FILTER = 'envoy.filters.http.router';
export const FAULT_FILTER = 'envoy.filters.http.fault';
export const CORS_FILTER = 'envoy.filters.http.cors';
export const ORIGINAL_DST_FILTER = 'envoy.filters.listener.original_dst';
export const TLS_INSPECTOR_FILTER = 'envoy.filters.listener.tls_inspector';
export const HTTP_INSPECTOR_FILTER = 'envoy.filters.listener.http_inspector';

// filters.go: transport protocols set by the TLS inspector
export const TLS_TRANSPORT = 'tls';
export const RAW_BUFFER_TRANSPORT = 'raw_buffer';

/** listener.go plaintextHTTPALPNs with PILOT_HTTP10 off (the default). */
export const PLAINTEXT_HTTP_ALPNS: readonly string[] = ['http/1.1', 'h2c'];

/** filters.go: TLSInspector (initial_read_buffer_size 512; Envoy's default is 64KiB). */
export const tlsInspector = (): ListenerFilterJson => ({
  name: TLS_INSPECTOR_FILTER,
  typedConfig: typed(EXT.tlsInspector, { initialReadBufferSize: 512 }),
});
export const httpInspector = (): ListenerFilterJson => ({
  name: HTTP_INSPECTOR_FILTER,
  typedConfig: typed(EXT.httpInspector, {}),
});
export const originalDst = (): ListenerFilterJson => ({
  name: ORIGINAL_DST_FILTER,
  typedConfig: typed(EXT.originalDst, {}),
});

export const faultFilter = (): HttpFilterJson => ({ name: FAULT_FILTER, typedConfig: typed(EXT.fault, {}) });
export const corsFilter = (): HttpFilterJson => ({ name: CORS_FILTER, typedConfig: typed(EXT.cors, {}) });
/** filters.go BuildRouterFilter with start_child_span and suppress_envoy_headers off (defaults). */
export const routerFilter = (): HttpFilterJson => ({ name: ROUTER_FILTER, typedConfig: typed(EXT.router, {}) });

/** A tcp_proxy network filter (networkfilter.go setAccessLogAndBuildTCPFilter, without access logs). */
export function tcpProxyFilter(proxy: TcpProxyJson): FilterJson {
  return { name: TCP_PROXY_FILTER, typedConfig: typed(EXT.tcpProxy, proxy) };
}

/** tcp_proxy straight to one cluster with the cluster name as stat prefix (passthrough/blackhole chains). */
export const tcpProxyTo = (cluster: string, statPrefix = cluster): FilterJson => tcpProxyFilter({ statPrefix, cluster });

/** util.DelimitedStatsPrefix: HCM stat prefixes end with ";" (constants.StatPrefixDelimiter). */
export const delimitedStatPrefix = (prefix: string): string => `${prefix};`;

/** Reserved listener ports a sidecar never builds 0.0.0.0 listeners on (context.go conflictWithReservedListener):
 * the virtual listeners (MeshConfig proxyListenPort/proxyInboundListenPort) and the injector's default status
 * (15021) and Prometheus (15090) ports. */
export const RESERVED_PORTS: ReadonlySet<number> = new Set([15001, 15006, 15021, 15090]);
