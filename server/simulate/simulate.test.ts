// End-to-end simulation tables on hand-built istiod-shaped config (testdata/mesh.ts). Expected values
// follow Envoy's matching rules (listener original-dst hand-off, FilterChainMatch order, virtual host and
// route matching) and Istio's simulator wording (pilot/pkg/simulation/traffic.go).
import { describe, expect, it } from 'vitest';
import { simulate, simulateRoute } from './index';
import { gateway, sidecar } from './testdata/mesh';

const reviews = 'reviews.default.svc.cluster.local';

describe('sidecar outbound (virtualOutbound hand-off → 0.0.0.0_9080 → RDS 9080)', () => {
  it('jason header present → first route (header match), its cluster and endpoints', () => {
    const r = simulate(sidecar(), {
      mode: 'outbound',
      address: '10.96.0.20',
      port: 9080,
      host: 'reviews:9080',
      headers: { 'end-user': 'jason' },
    });
    expect(r).toMatchObject({
      listener: '0.0.0.0_9080',
      filterChain: '0.0.0.0_9080',
      routeConfig: '9080',
      virtualHost: `${reviews}:9080`,
      route: 'jason',
      cluster: `outbound|9080|v2|${reviews}`,
      endpoints: ['10.244.0.12:9080'],
      source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'jason' },
    });
    expect(r.error).toBeUndefined();
    expect(Object.keys(r).slice(0, 8)).toEqual([
      'listener',
      'filterChain',
      'routeConfig',
      'virtualHost',
      'route',
      'routeIndex',
      'cluster',
      'endpoints',
    ]);
  });

  it('jason header absent → catch-all weighted split; the header route is listed as rejected with the reason', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.96.0.20', port: 9080, host: `${reviews}` });
    expect(r.route).toBe('default-split');
    expect(r.cluster).toBeUndefined();
    expect(r.weightedClusters).toEqual({ [`outbound|9080|v1|${reviews}`]: 80, [`outbound|9080|v3|${reviews}`]: 20 });
    expect(r.endpoints).toEqual(['10.244.0.11:9080', '10.244.0.13:9080', '10.244.0.14:9080']);
    expect(r.rejected).toContainEqual({ hop: 'route', name: 'jason', index: 0, reason: 'header end-user absent' });
    expect(r.source).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'default-split' });
  });

  it('other vhosts are rejected with "domain does not match"', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.96.0.20', port: 9080, host: 'reviews' });
    expect(r.rejected).toContainEqual({
      hop: 'virtualHost',
      name: 'ratings.default.svc.cluster.local:9080',
      index: 1,
      reason: 'domain does not match',
    });
  });

  it('unknown host falls to allow_any → PassthroughCluster (ORIGINAL_DST → the request address)', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.1.2.3', port: 9080, host: 'example.org' });
    expect(r).toMatchObject({ virtualHost: 'allow_any', route: 'allow_any', cluster: 'PassthroughCluster', endpoints: ['10.1.2.3:9080'] });
  });

  it('raw TCP to the HTTP listener has no matching chain → default_filter_chain (PassthroughFilterChain)', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.96.0.20', port: 9080, protocol: 'tcp' });
    expect(r).toMatchObject({ listener: '0.0.0.0_9080', filterChain: 'PassthroughFilterChain', cluster: 'PassthroughCluster' });
    expect(r.rejected).toContainEqual({
      hop: 'filterChain',
      name: '0.0.0.0_9080',
      index: 0,
      reason: 'application protocols [] not in ["http/1.1","h2c"]',
    });
  });

  it('exact address:port listener wins over 0.0.0.0 (tcp_proxy cluster)', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.96.0.30', port: 3306, protocol: 'tcp' });
    expect(r).toMatchObject({
      listener: '10.96.0.30_3306',
      filterChain: 'filter_chains[0]',
      cluster: 'outbound|3306||mysql.default.svc.cluster.local',
    });
  });

  it('no listener for the port → the connection stays on virtualOutbound', () => {
    const r = simulate(sidecar(), { mode: 'outbound', address: '10.9.9.9', port: 7777, protocol: 'tcp' });
    expect(r).toMatchObject({
      listener: 'virtualOutbound',
      filterChain: 'virtualOutbound-catchall-tcp',
      cluster: 'PassthroughCluster',
      endpoints: ['10.9.9.9:7777'],
    });
  });

  it('no route matched: partial hops are still reported', () => {
    const cfg = sidecar();
    const rc = cfg.routes[0] as { virtual_hosts: { routes: unknown[] }[] };
    (rc.virtual_hosts[1] as { routes: unknown[] }).routes = [{ name: 'only-api', match: { prefix: '/api' }, route: { cluster: 'x' } }];
    const r = simulate(cfg, { mode: 'outbound', address: '10.96.0.40', port: 9080, host: 'ratings', path: '/web' });
    expect(r).toMatchObject({
      listener: '0.0.0.0_9080',
      routeConfig: '9080',
      virtualHost: 'ratings.default.svc.cluster.local:9080',
      error: 'no route matched',
    });
    expect(r.route).toBeUndefined();
    expect(r.rejected).toContainEqual({ hop: 'route', name: 'only-api', index: 0, reason: 'path /web does not match prefix /api' });
  });

  it('no virtual host matched when the route config has no * vhost', () => {
    const cfg = sidecar();
    const rc = cfg.routes[0] as { virtual_hosts: unknown[] };
    rc.virtual_hosts = rc.virtual_hosts.slice(0, 2);
    const r = simulate(cfg, { mode: 'outbound', address: '10.1.1.1', port: 9080, host: 'example.org' });
    expect(r).toMatchObject({ listener: '0.0.0.0_9080', routeConfig: '9080', error: 'no virtual host matched' });
    expect(r.virtualHost).toBeUndefined();
  });

  it('no listener matched (gateway mode, nothing on the port)', () => {
    expect(simulate(sidecar(), { mode: 'gateway', port: 1234 })).toEqual({ rejected: [], error: 'no listener matched' });
  });

  it('gateway mode cannot reach bind_to_port:false listeners', () => {
    const r = simulate(sidecar(), { mode: 'gateway', port: 9080 });
    expect(r.error).toBe('no listener matched');
    expect(r.rejected[0]?.reason).toMatch(/bind_to_port is false/);
  });
});

describe('sidecar inbound (virtualInbound chains by destination_port)', () => {
  it('port 9080 → inbound|9080|| chain, route config and ORIGINAL_DST endpoint', () => {
    const r = simulate(sidecar(), { mode: 'inbound', address: '10.244.0.11', port: 9080, host: 'reviews:9080' });
    expect(r).toMatchObject({
      listener: 'virtualInbound',
      filterChain: 'inbound|9080||',
      routeConfig: 'inbound|9080||',
      cluster: 'inbound|9080||',
      endpoints: ['10.244.0.11:9080'],
    });
  });
  it('other ports → passthrough chain; the port chain is rejected', () => {
    const r = simulate(sidecar(), { mode: 'inbound', address: '10.244.0.11', port: 8000, protocol: 'tcp' });
    expect(r).toMatchObject({ filterChain: 'InboundPassthroughClusterIpv4', cluster: 'InboundPassthroughClusterIpv4' });
    expect(r.rejected).toContainEqual({
      hop: 'filterChain',
      name: 'inbound|9080||',
      index: 0,
      reason: 'destination_port 9080 does not match 8000',
    });
  });
});

describe('gateway', () => {
  const gw = gateway();
  it('require_tls ALL with plaintext → tls required, sending 301 (with the https location)', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8080, host: 'secure.example.com:8080', path: '/a?b=1' });
    expect(r).toMatchObject({
      listener: '0.0.0.0_8080',
      routeConfig: 'http.8080',
      virtualHost: 'secure.example.com:80',
      error: 'tls required, sending 301',
    });
    expect(r.redirect).toEqual({ status: 301, location: 'https://secure.example.com/a?b=1' });
  });
  it('port in Host is ignored (ignore_port_in_host_matching) and the VS is the source', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8080, host: 'bookinfo.example.com:8080', path: '/productpage' });
    expect(r).toMatchObject({
      virtualHost: 'bookinfo.example.com:80',
      route: 'productpage',
      cluster: 'outbound|9080||productpage.default.svc.cluster.local',
      endpoints: ['10.244.0.31:9080'],
    });
    expect(r.source).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'bookinfo', rule: 'productpage' });
  });
  it('redirect route: prefix_rewrite and response code FOUND', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8080, host: 'bookinfo.example.com', path: '/old/page?x=1' });
    expect(r).toMatchObject({ route: 'old', redirect: { status: 302, location: 'http://bookinfo.example.com/new/page?x=1' } });
    expect(r.error).toBeUndefined();
  });
  it('direct response route', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8080, host: 'bookinfo.example.com', path: '/gone' });
    expect(r).toMatchObject({ route: 'gone', directResponse: { status: 410, body: 'gone' } });
  });
  it('SNI exact server name beats a wildcard', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8443, host: 'bookinfo.example.com', tls: 'tls' });
    expect(r).toMatchObject({
      filterChain: 'exact',
      routeConfig: 'https.8443.bookinfo',
      cluster: 'outbound|9080||productpage.default.svc.cluster.local',
    });
    expect(r.rejected).toContainEqual({
      hop: 'filterChain',
      name: 'wild',
      index: 1,
      reason: 'another chain matched server_names more specifically',
    });
  });
  it('SNI wildcard server name', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8443, host: 'shop.example.com', tls: 'tls' });
    expect(r).toMatchObject({
      filterChain: 'wild',
      virtualHost: '*.example.com:443',
      cluster: 'outbound|80||wild.default.svc.cluster.local',
    });
  });
  it('TLS passthrough by SNI to tcp_proxy', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8443, sni: 'db.internal', tls: 'tls', protocol: 'tcp' });
    expect(r).toMatchObject({ filterChain: 'passthrough', cluster: 'outbound|5432||db.internal' });
  });
  it('plaintext to a TLS-only listener → no filter chains matched (every chain needs a server name)', () => {
    const r = simulate(gw, { mode: 'gateway', port: 8443, host: 'bookinfo.example.com' });
    expect(r).toMatchObject({ listener: '0.0.0.0_8443', error: 'no filter chains matched' });
    expect(r.rejected).toHaveLength(3);
  });
  it('unknown SNI → no filter chains matched', () => {
    expect(simulate(gw, { mode: 'gateway', port: 8443, sni: 'other.org', tls: 'tls' }).error).toBe('no filter chains matched');
  });
  it('TCP to an HCM chain → protocol error (traffic.go ErrProtocolError)', () => {
    expect(simulate(gw, { mode: 'gateway', port: 8080, protocol: 'tcp' }).error).toBe('protocol error');
  });
});

describe('simulateRoute and input robustness', () => {
  it('starts at a route configuration by name', () => {
    const r = simulateRoute(sidecar(), '9080', { mode: 'outbound', port: 9080, host: 'ratings' });
    expect(r).toMatchObject({
      routeConfig: '9080',
      virtualHost: 'ratings.default.svc.cluster.local:9080',
      cluster: 'outbound|9080||ratings.default.svc.cluster.local',
      endpoints: ['10.244.0.21:9080'],
    });
  });
  it('invalid requests give an error, never throw', () => {
    expect(simulate(sidecar(), { mode: 'sideways' as never, port: 80 }).error).toBe('invalid request: invalid mode sideways');
    expect(simulate(sidecar(), { mode: 'outbound', port: -1 }).error).toBe('invalid request: invalid port -1');
  });
  it('garbage resources never throw', () => {
    const cfg = {
      listeners: [
        { name: 'x', address: 5, filter_chains: 'no' },
        {
          address: { socket_address: { address: '0.0.0.0', port_value: 80 } },
          filter_chains: [{ filters: [{ typed_config: { '@type': 'HttpConnectionManager', rds: 7 } }] }],
        },
      ],
      routes: [null],
      clusters: [1],
      endpoints: ['x'],
    } as never;
    const r = simulate(cfg, { mode: 'gateway', port: 80, host: 'a' });
    expect(r.listener).toBe('0.0.0.0_80');
    expect(r.error).toBeDefined();
  });
});

describe('more actions and checks', () => {
  const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
  const TLS_CTX = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext';
  const one = (vh: Record<string, unknown>, chain: Record<string, unknown> = {}) =>
    ({
      listeners: [
        {
          name: 'l',
          address: { socket_address: { address: '0.0.0.0', port_value: 80 } },
          filter_chains: [
            { ...chain, filters: [{ name: 'hcm', typed_config: { '@type': HCM, route_config: { name: 'inline', virtual_hosts: [vh] } } }] },
          ],
        },
      ],
      routes: [],
      clusters: [],
      endpoints: [],
    }) as never;

  it('exact address listener beats the wildcard one on the same port; the wildcard is listed as rejected', () => {
    const cfg = sidecar();
    cfg.listeners.push({
      name: '0.0.0.0_3306',
      address: { socket_address: { address: '0.0.0.0', port_value: 3306 } },
      bind_to_port: false,
      filter_chains: [],
    });
    const r = simulate(cfg, { mode: 'outbound', address: '10.96.0.30', port: 3306, protocol: 'tcp' });
    expect(r.listener).toBe('10.96.0.30_3306');
    expect(r.rejected).toContainEqual({
      hop: 'listener',
      name: '0.0.0.0_3306',
      index: 4,
      reason: 'address 10.96.0.30 matched another listener exactly',
    });
  });
  it('cluster_header takes the cluster from the request header (RouteAction.cluster_header)', () => {
    const cfg = one({ name: 'v', domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster_header: 'X-Cluster' } }] });
    expect(simulate(cfg, { mode: 'gateway', port: 80, headers: { 'x-cluster': 'blue' } }).cluster).toBe('blue');
    expect(simulate(cfg, { mode: 'gateway', port: 80 }).error).toMatch(/^cluster_header X-Cluster absent/);
  });
  it('runtime_fraction probability is reported on the result', () => {
    const cfg = one({
      name: 'v',
      domains: ['*'],
      routes: [
        { match: { prefix: '/', runtime_fraction: { default_value: { numerator: 30 }, runtime_key: 'k' } }, route: { cluster: 'c' } },
      ],
    });
    expect(simulate(cfg, { mode: 'gateway', port: 80 })).toMatchObject({ cluster: 'c', runtimeFraction: 0.3 });
  });
  it('require_tls EXTERNAL_ONLY redirects external plaintext requests only (x-envoy-internal: true is internal)', () => {
    const cfg = one({
      name: 'v',
      domains: ['*'],
      require_tls: 'EXTERNAL_ONLY',
      routes: [{ match: { prefix: '/' }, route: { cluster: 'c' } }],
    });
    expect(simulate(cfg, { mode: 'gateway', port: 80, host: 'a' }).error).toBe('tls required, sending 301');
    expect(simulate(cfg, { mode: 'gateway', port: 80, host: 'a', headers: { 'x-envoy-internal': 'true' } }).cluster).toBe('c');
  });
  it('TLS to an HCM chain that does not terminate TLS → protocol error; plaintext to a TLS chain → invalid TLS', () => {
    const vh = { name: 'v', domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: 'c' } }] };
    expect(simulate(one(vh), { mode: 'gateway', port: 80, tls: 'tls' }).error).toBe('protocol error');
    const tlsChain = { transport_socket: { name: 'envoy.transport_sockets.tls', typed_config: { '@type': TLS_CTX } } };
    expect(simulate(one(vh, tlsChain), { mode: 'gateway', port: 80 })).toMatchObject({
      filterChain: 'filter_chains[0]',
      error: 'invalid TLS',
    });
    expect(simulate(one(vh, tlsChain), { mode: 'gateway', port: 80, tls: 'tls' }).cluster).toBe('c');
  });
  it('redirect with https_redirect drops the default port; strip_query drops the query', () => {
    const cfg = one({
      name: 'v',
      domains: ['*'],
      routes: [{ match: { prefix: '/' }, redirect: { https_redirect: true, strip_query: true } }],
    });
    expect(simulate(cfg, { mode: 'gateway', port: 80, host: 'a.com:80', path: '/x?y=1' }).redirect).toEqual({
      status: 301,
      location: 'https://a.com/x',
    });
  });
  it('RDS route config missing from the config → no virtual host matched, with the reason', () => {
    const cfg = gateway();
    cfg.routes = [];
    const r = simulate(cfg, { mode: 'gateway', port: 8080, host: 'bookinfo.example.com' });
    expect(r).toMatchObject({ routeConfig: 'http.8080', error: 'no virtual host matched' });
    expect(r.rejected).toContainEqual({
      hop: 'routeConfig',
      name: 'http.8080',
      reason: 'route configuration not in the config (RDS not received)',
    });
  });
});
