// Hand-built Envoy JSON (snake_case, as config_dump prints it) shaped like what istiod generates for a
// Bookinfo sidecar and an ingress gateway. Used by the simulation tables.
import type { EnvoyConfig } from '../../envoy/dumpReader';
import type { EnvoyJson } from '../../envoy/encode';

const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
const TCP = 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy';
const TLS_CTX = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext';

const listenerFilters = [
  { name: 'envoy.filters.listener.tls_inspector', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector' } },
  { name: 'envoy.filters.listener.http_inspector', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.listener.http_inspector.v3.HttpInspector' } },
];

export const rds = (name: string) => ({
  name: 'envoy.filters.network.http_connection_manager',
  typed_config: { '@type': HCM, stat_prefix: name, rds: { route_config_name: name, config_source: { ads: {} } } },
});
export const tcpProxy = (cluster: string) => ({
  name: 'envoy.filters.network.tcp_proxy',
  typed_config: { '@type': TCP, stat_prefix: cluster, cluster },
});
const vs = (ns: string, name: string) => ({
  filter_metadata: { istio: { config: `/apis/networking.istio.io/v1/namespaces/${ns}/virtual-service/${name}` } },
});
const sock = (address: string, port: number) => ({ socket_address: { address, port_value: port } });
const eds = (name: string) => ({ name, type: 'EDS', eds_cluster_config: { eds_config: { ads: {} }, service_name: name } });
const cla = (name: string, ...ips: string[]) => ({
  cluster_name: name,
  endpoints: [{ lb_endpoints: ips.map((ip) => ({ endpoint: { address: sock(ip, 9080) } })) }],
});

const reviews = 'reviews.default.svc.cluster.local';

/** Route config "9080" as istiod builds it for a sidecar: one vhost per service:port plus allow_any. */
export const route9080 = {
  name: '9080',
  virtual_hosts: [
    {
      name: `${reviews}:9080`,
      domains: [reviews, `${reviews}:9080`, 'reviews', 'reviews:9080', 'reviews.default', 'reviews.default:9080', '10.96.0.20', '10.96.0.20:9080'],
      routes: [
        {
          name: 'jason',
          match: { prefix: '/', case_sensitive: true, headers: [{ name: 'end-user', string_match: { exact: 'jason' } }] },
          route: { cluster: `outbound|9080|v2|${reviews}` },
          metadata: vs('default', 'reviews'),
        },
        {
          name: 'default-split',
          match: { prefix: '/' },
          route: {
            weighted_clusters: {
              clusters: [
                { name: `outbound|9080|v1|${reviews}`, weight: 80 },
                { name: `outbound|9080|v3|${reviews}`, weight: 20 },
              ],
            },
          },
          metadata: vs('default', 'reviews'),
        },
      ],
    },
    {
      name: 'ratings.default.svc.cluster.local:9080',
      domains: ['ratings.default.svc.cluster.local', 'ratings.default.svc.cluster.local:9080', 'ratings', 'ratings:9080'],
      routes: [{ name: 'default', match: { prefix: '/' }, route: { cluster: 'outbound|9080||ratings.default.svc.cluster.local' } }],
    },
    {
      name: 'allow_any',
      domains: ['*'],
      routes: [{ name: 'allow_any', match: { prefix: '/' }, route: { cluster: 'PassthroughCluster' } }],
    },
  ],
  validate_clusters: false,
};

export function sidecar(): EnvoyConfig {
  const listeners: EnvoyJson[] = [
    {
      name: 'virtualOutbound',
      address: sock('0.0.0.0', 15001),
      use_original_dst: true,
      filter_chains: [{ name: 'virtualOutbound-catchall-tcp', filters: [tcpProxy('PassthroughCluster')] }],
    },
    {
      name: '0.0.0.0_9080',
      address: sock('0.0.0.0', 9080),
      bind_to_port: false,
      listener_filters: listenerFilters,
      filter_chains: [
        { filter_chain_match: { transport_protocol: 'raw_buffer', application_protocols: ['http/1.1', 'h2c'] }, filters: [rds('9080')], name: '0.0.0.0_9080' },
      ],
      default_filter_chain: { name: 'PassthroughFilterChain', filters: [tcpProxy('PassthroughCluster')] },
    },
    {
      name: '10.96.0.30_3306',
      address: sock('10.96.0.30', 3306),
      bind_to_port: false,
      filter_chains: [{ filters: [tcpProxy('outbound|3306||mysql.default.svc.cluster.local')] }],
    },
    {
      name: 'virtualInbound',
      address: sock('0.0.0.0', 15006),
      listener_filters: listenerFilters,
      filter_chains: [
        { name: 'inbound|9080||', filter_chain_match: { destination_port: 9080, transport_protocol: 'raw_buffer' }, filters: [rds('inbound|9080||')] },
        { name: 'InboundPassthroughClusterIpv4', filter_chain_match: { prefix_ranges: [{ address_prefix: '0.0.0.0', prefix_len: 0 }] }, filters: [tcpProxy('InboundPassthroughClusterIpv4')] },
      ],
    },
  ];
  const routes: EnvoyJson[] = [
    structuredClone(route9080) as EnvoyJson,
    {
      name: 'inbound|9080||',
      virtual_hosts: [{ name: 'inbound|http|9080', domains: ['*'], routes: [{ name: 'default', match: { prefix: '/' }, route: { cluster: 'inbound|9080||' } }] }],
    },
  ];
  const clusters: EnvoyJson[] = [
    eds(`outbound|9080|v1|${reviews}`),
    eds(`outbound|9080|v2|${reviews}`),
    eds(`outbound|9080|v3|${reviews}`),
    eds('outbound|9080||ratings.default.svc.cluster.local'),
    { name: 'PassthroughCluster', type: 'ORIGINAL_DST', lb_policy: 'CLUSTER_PROVIDED' },
    { name: 'inbound|9080||', type: 'ORIGINAL_DST', lb_policy: 'CLUSTER_PROVIDED' },
  ];
  const endpoints: EnvoyJson[] = [
    cla(`outbound|9080|v1|${reviews}`, '10.244.0.11'),
    cla(`outbound|9080|v2|${reviews}`, '10.244.0.12'),
    cla(`outbound|9080|v3|${reviews}`, '10.244.0.13', '10.244.0.14'),
    cla('outbound|9080||ratings.default.svc.cluster.local', '10.244.0.21'),
  ];
  return { listeners, routes, clusters, endpoints };
}

/** An ingress gateway: 0.0.0.0_8080 (HTTP, redirects to https per Gateway tls.httpsRedirect) and 0.0.0.0_8443 (SNI). */
export function gateway(): EnvoyConfig {
  const tlsSocket = { name: 'envoy.transport_sockets.tls', typed_config: { '@type': TLS_CTX, common_tls_context: {} } };
  const listeners: EnvoyJson[] = [
    { name: '0.0.0.0_8080', address: sock('0.0.0.0', 8080), filter_chains: [{ filters: [rds('http.8080')] }] },
    {
      name: '0.0.0.0_8443',
      address: sock('0.0.0.0', 8443),
      listener_filters: [listenerFilters[0] as EnvoyJson],
      filter_chains: [
        { name: 'exact', filter_chain_match: { server_names: ['bookinfo.example.com'] }, transport_socket: tlsSocket, filters: [rds('https.8443.bookinfo')] },
        { name: 'wild', filter_chain_match: { server_names: ['*.example.com'] }, transport_socket: tlsSocket, filters: [rds('https.8443.wild')] },
        { name: 'passthrough', filter_chain_match: { server_names: ['db.internal'] }, filters: [tcpProxy('outbound|5432||db.internal')] },
      ],
    },
  ];
  const gw = (name: string, domain: string, cluster: string) => ({
    name,
    ignore_port_in_host_matching: true,
    virtual_hosts: [{ name: `${domain}:443`, domains: [domain], routes: [{ name: 'r', match: { prefix: '/' }, route: { cluster } }] }],
  });
  const routes: EnvoyJson[] = [
    {
      name: 'http.8080',
      ignore_port_in_host_matching: true,
      virtual_hosts: [
        { name: 'secure.example.com:80', domains: ['secure.example.com'], require_tls: 'ALL', routes: [{ match: { prefix: '/' }, route: { cluster: 'x' } }] },
        {
          name: 'bookinfo.example.com:80',
          domains: ['bookinfo.example.com'],
          routes: [
            { name: 'old', match: { prefix: '/old/' }, redirect: { prefix_rewrite: '/new/', response_code: 'FOUND' } },
            { name: 'gone', match: { path: '/gone' }, direct_response: { status: 410, body: { inline_string: 'gone' } } },
            {
              name: 'productpage',
              match: { path: '/productpage', case_sensitive: true },
              route: { cluster: 'outbound|9080||productpage.default.svc.cluster.local' },
              metadata: vs('default', 'bookinfo'),
            },
          ],
        },
      ],
    },
    gw('https.8443.bookinfo', 'bookinfo.example.com', 'outbound|9080||productpage.default.svc.cluster.local'),
    gw('https.8443.wild', '*.example.com', 'outbound|80||wild.default.svc.cluster.local'),
  ];
  return { listeners, routes, clusters: [eds('outbound|9080||productpage.default.svc.cluster.local')], endpoints: [cla('outbound|9080||productpage.default.svc.cluster.local', '10.244.0.31')] };
}
