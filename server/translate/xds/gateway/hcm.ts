// The HTTP connection manager on gateway chains (networking/core/gateway.go:buildGatewayConnectionManager,
// createGatewayHTTPFilterChainOpts; listener_builder.go:buildHTTPConnectionManager), default MeshConfig:
// use_remote_address, server name istio-envoy, XFCC SANITIZE_SET with the current cert details, HTTP/1
// options, websocket upgrades, normalize_path, stream_idle_timeout 0s, RDS over ADS.
// HTTP filters: istiod's gateway chain (../listeners/istioFilters) with the AuthorizationPolicy filters (server/translate/authz)
// in their place (tracing, access logs and the uuid request-id extension are omitted, as on sidecar chains).
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type {
  HttpConnectionManagerJson,
  HttpFilterJson,
} from '../../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import { EXT } from '../../../envoy/typeUrls';
import { HCM_FILTER, typed } from '../listeners/filters';
import { istioHttpFilters } from '../listeners/istioFilters';

export function buildGatewayHcm(statPrefix: string, rds: string, authzFilters: readonly HttpFilterJson[] = []): HttpConnectionManagerJson {
  return {
    codecType: 'AUTO',
    statPrefix,
    rds: { configSource: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, routeConfigName: rds },
    httpFilters: istioHttpFilters('GATEWAY', authzFilters),
    useRemoteAddress: true,
    forwardClientCertDetails: 'SANITIZE_SET',
    setCurrentClientCertDetails: { subject: true, cert: true, dns: true, uri: true },
    serverName: 'istio-envoy',
    httpProtocolOptions: {},
    normalizePath: true,
    pathWithEscapedSlashesAction: 'KEEP_UNCHANGED',
    upgradeConfigs: [{ upgradeType: 'websocket' }],
    streamIdleTimeout: '0s',
    proxy100Continue: true,
  };
}

export const gatewayHcmFilter = (statPrefix: string, rds: string, authzFilters?: readonly HttpFilterJson[]): FilterJson => ({
  name: HCM_FILTER,
  typedConfig: typed(EXT.hcm, buildGatewayHcm(statPrefix, rds, authzFilters)),
});
