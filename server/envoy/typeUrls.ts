// xDS resource type URLs live with the model (server/model/xdsTypes.ts); Envoy's extension and dump URLs here.
export { TYPE, type TypeUrl, type XdsKind } from '../model/xdsTypes';

/** Well-known Envoy extension type URLs used by the translator. */
export const EXT = {
  hcm: 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
  tcpProxy: 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy',
  router: 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router',
  fault: 'type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault',
  cors: 'type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors',
  corsPolicy: 'type.googleapis.com/envoy.extensions.filters.http.cors.v3.CorsPolicy',
  originalDst: 'type.googleapis.com/envoy.extensions.filters.listener.original_dst.v3.OriginalDst',
  tlsInspector: 'type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector',
  httpInspector: 'type.googleapis.com/envoy.extensions.filters.listener.http_inspector.v3.HttpInspector',
  downstreamTls: 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
  upstreamTls: 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext',
  rawBuffer: 'type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer',
  rbacHttp: 'type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC',
  rbacNetwork: 'type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC',
} as const;

/** Envoy's admin config_dump section types. */
export const DUMP = {
  clusters: 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
  listeners: 'type.googleapis.com/envoy.admin.v3.ListenersConfigDump',
  routes: 'type.googleapis.com/envoy.admin.v3.RoutesConfigDump',
  endpoints: 'type.googleapis.com/envoy.admin.v3.EndpointsConfigDump',
} as const;
