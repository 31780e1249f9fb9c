// The HTTP connection manager istiod puts on sidecar chains
// (listener_builder.go: buildHTTPConnectionManager; listener.go: buildSidecarOutboundHTTPListenerOpts;
// listener_inbound.go: buildSidecarInboundHTTPOpts), with default MeshConfig and feature flags.
//
// HTTP filters in istiod's order: ./istioFilters (istioHttpFilters).
// Omitted: tracing (MeshConfig enableTracing sampling/custom tags), access_log and the uuid
// request_id_extension (no generated schemas).
import type { HttpConnectionManagerJson } from '../../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { HttpFilterJson } from '../../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { Protocol } from '../../../model/mesh';
import { EXT } from '../../../envoy/typeUrls';
import { HCM_FILTER, typed } from './filters';
import { istioHttpFilters } from './istioFilters';
import { isHttp2Protocol } from '../../../model/protocol';

export interface HcmOptions {
  direction: 'outbound' | 'inbound';
  /** Already delimited (`outbound_0.0.0.0_9080;`). */
  statPrefix: string;
  protocol: Protocol;
  /** RDS route config name (outbound); otherwise routeConfig is inlined (inbound). */
  rds?: string;
  routeConfig?: RouteConfigurationJson;
  /** Authorization filters (RBAC), placed first: istiod puts authn/authz before fault, cors and router. */
  authzFilters?: readonly HttpFilterJson[];
}

export function buildHcm(o: HcmOptions): HttpConnectionManagerJson {
  const hcm: HttpConnectionManagerJson = {
    codecType: 'AUTO',
    statPrefix: o.statPrefix,
    httpFilters: istioHttpFilters(o.direction === 'inbound' ? 'SIDECAR_INBOUND' : 'SIDECAR_OUTBOUND', o.authzFilters),
    // MeshConfig pathNormalization DEFAULT → normalize_path; escaped slashes kept.
    normalizePath: true,
    pathWithEscapedSlashesAction: 'KEEP_UNCHANGED',
    // Sidecars never use the remote address (PILOT_SIDECAR_USE_REMOTE_ADDRESS=false).
    useRemoteAddress: false,
    upgradeConfigs: [{ upgradeType: 'websocket' }],
    streamIdleTimeout: '0s',
    // ENABLE_100_CONTINUE_HEADERS defaults to true.
    proxy100Continue: true,
  };
  if (o.rds !== undefined) {
    hcm.rds = {
      configSource: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
      routeConfigName: o.rds,
    };
  } else if (o.routeConfig) {
    hcm.routeConfig = o.routeConfig;
  }
  if (o.direction === 'inbound') {
    // util.GetProxyHeaders: inbound server name "istio-envoy", XFCC APPEND_FORWARD, current cert details.
    hcm.serverName = 'istio-envoy';
    hcm.forwardClientCertDetails = 'APPEND_FORWARD';
    hcm.setCurrentClientCertDetails = { subject: true, uri: true, dns: true };
    if (isHttp2Protocol(o.protocol)) hcm.http2ProtocolOptions = {};
  }
  // Outbound: util.GetProxyHeaders leaves server_name unset (Envoy's "envoy").
  return hcm;
}

export function hcmFilter(o: HcmOptions): FilterJson {
  return { name: HCM_FILTER, typedConfig: typed(EXT.hcm, buildHcm(o)) };
}
