// One or more requests per real config dump in ../shared/fixtures/envoy-config-dumps/. Each expectation
// was derived by reading the dump (the derivation is in the comment above each test).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfigDump, type EnvoyConfig } from '../envoy/dumpReader';
import { simulate, simulateRoute } from './index';
import { clusterEndpoints } from './action';
import { normalizeRequest } from './types';
import { configDumpFixture } from '../testing/paths';

const read = (f: string): EnvoyConfig => {
  const { config, errors } = readConfigDump(JSON.parse(readFileSync(configDumpFixture(f), 'utf8')));
  expect(errors).toEqual([]);
  return config;
};

describe('sidecar-config_dump.json (an ambient waypoint: connect_terminate, main_internal, connect_originate)', () => {
  const cfg = read('sidecar-config_dump.json');

  // connect_terminate binds 0.0.0.0:15008; its only chain "default" has no match and terminates TLS; its HCM
  // has an inline route_config "default" with vhost "default" (*) whose only route has connect_matcher and
  // routes to cluster main_internal — which is not in this dump's clusters.
  // HBONE clients are Istio mTLS clients: the chain's DownstreamTlsContext presents the workload certificate
  // (SDS `default`) and requires a client certificate (traffic.go requiresMTLS).
  it('HBONE CONNECT on 15008 → connect_terminate → main_internal', () => {
    const r = simulate(cfg, {
      mode: 'gateway',
      port: 15008,
      tls: 'mtls',
      alpn: ['h2'],
      protocol: 'http2',
      method: 'CONNECT',
      host: '10.96.1.201:9080',
    });
    expect(r).toMatchObject({
      listener: 'connect_terminate',
      filterChain: 'default',
      routeConfig: 'default',
      virtualHost: 'default',
      route: '',
      cluster: 'main_internal',
      endpoints: [],
    });
    expect(r.error).toBeUndefined();
    expect(r.notes).toContain('cluster main_internal is not in the config');
  });
  // Plain GET: the connect_matcher route does not match → no route matched.
  it('non-CONNECT request on 15008 → no route matched', () => {
    const r = simulate(cfg, { mode: 'gateway', port: 15008, tls: 'mtls', alpn: ['h2'], protocol: 'http2', host: 'x' });
    expect(r.error).toBe('no route matched');
    expect(r.rejected).toContainEqual({ hop: 'route', name: '', index: 0, reason: 'method GET is not CONNECT' });
  });
  it('plain TLS (no client certificate) to the HBONE listener → invalid mTLS', () => {
    const r = simulate(cfg, { mode: 'gateway', port: 15008, tls: 'tls', protocol: 'http2', method: 'CONNECT', host: '10.96.1.201:9080' });
    expect(r.error).toBe('invalid mTLS');
    expect(r.filterChain).toBe('default');
  });
  // main_internal's filter_chain_matcher: DestinationIPInput 10.96.1.201/32 → DestinationPortInput exact 9080 →
  // "inbound-vip|9080||details.default.svc.cluster.local-http", the one chain present; its inline route config
  // "inbound-vip|9080|http|details.default.svc.cluster.local" has vhost "inbound|http|9080" (*) and route
  // "default" (prefix /) → cluster of the same name.
  it('internal listener main_internal: details VIP → its chain, route "default" and cluster', () => {
    const r = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '10.96.1.201', port: 9080, host: 'details:9080' });
    expect(r).toMatchObject({
      listener: 'main_internal',
      filterChain: 'inbound-vip|9080||details.default.svc.cluster.local-http',
      routeConfig: 'inbound-vip|9080|http|details.default.svc.cluster.local',
      virtualHost: 'inbound|http|9080',
      route: 'default',
      cluster: 'inbound-vip|9080|http|details.default.svc.cluster.local',
    });
  });
  // 10.98.193.58:9080 selects "inbound-vip|9080||ratings.default.svc.cluster.local-http", which this (truncated)
  // dump's main_internal does not contain, and there is no default_filter_chain.
  it('matcher selecting a chain missing from the listener → no filter chains matched', () => {
    const r = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '10.98.193.58', port: 9080 });
    expect(r).toMatchObject({ listener: 'main_internal', error: 'no filter chains matched' });
  });
  // connect_originate (internal listener): one chain, tcp_proxy to cluster connect_originate.
  it('connect_originate → tcp_proxy connect_originate', () => {
    const r = simulate(cfg, { mode: 'inbound', listener: 'connect_originate', address: '10.244.0.5', port: 9080, protocol: 'tcp' });
    expect(r).toMatchObject({ listener: 'connect_originate', filterChain: 'filter_chains[0]', cluster: 'connect_originate' });
  });
});

describe('waypoint-config_dump.json', () => {
  const cfg = read('waypoint-config_dump.json');
  // The unnamed static listener 0.0.0.0:15021 has one chain whose inline, unnamed route config has vhost
  // "backend" (*) with prefix /healthz/ready → cluster agent (STATIC, load_assignment 127.0.0.1:15020).
  it('readiness probe on 15021 → agent at 127.0.0.1:15020', () => {
    const r = simulate(cfg, { mode: 'gateway', port: 15021, path: '/healthz/ready', host: '10.0.0.1:15021' });
    expect(r).toMatchObject({
      listener: '0.0.0.0_15021',
      filterChain: 'filter_chains[0]',
      virtualHost: 'backend',
      cluster: 'agent',
      endpoints: ['127.0.0.1:15020'],
    });
    expect(r.routeConfig).toBeUndefined();
  });
  it('other paths on 15021 → no route matched', () => {
    expect(simulate(cfg, { mode: 'gateway', port: 15021, path: '/stats' }).error).toBe('no route matched');
  });
  // main_internal: 10.104.171.68/32 → port map {8000, 8100}. 8100 → chain "inbound-vip|8100||…-http" → cluster
  // "inbound-vip|8100|http|httpbin.default.svc.cluster.local", absent from clusters but present in EDS with one
  // envoy_internal_address endpoint (connect_originate / 192.168.195.248:800).
  it('httpbin VIP port 8100 → inbound-vip|8100 cluster with its internal-address endpoint', () => {
    const r = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '10.104.171.68', port: 8100, host: 'httpbin:8100' });
    expect(r).toMatchObject({
      filterChain: 'inbound-vip|8100||httpbin.default.svc.cluster.local-http',
      routeConfig: 'inbound-vip|8100|http|httpbin.default.svc.cluster.local',
      route: 'default',
      cluster: 'inbound-vip|8100|http|httpbin.default.svc.cluster.local',
      endpoints: ['envoy://connect_originate/192.168.195.248:800'],
    });
  });
  // 8000 → cluster inbound-vip|8000|… is in the dump (EDS, service_name itself) but has no EDS entry.
  it('httpbin VIP port 8000 → EDS cluster without endpoints in the dump', () => {
    const r = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '10.104.171.68', port: 8000 });
    expect(r).toMatchObject({ cluster: 'inbound-vip|8000|http|httpbin.default.svc.cluster.local', endpoints: [] });
  });
  // 192.168.195.248/32 → ApplicationProtocolInput map {'h2c','http/1.1'} → direct-http, on_no_match → direct-tcp.
  it('pod IP: plaintext HTTP → direct-http (HCM "encap"), raw TCP → direct-tcp (tcp_proxy encap)', () => {
    const http = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '192.168.195.248', port: 800 });
    expect(http).toMatchObject({ filterChain: 'direct-http', routeConfig: 'encap', virtualHost: 'inbound|http|0', cluster: 'encap' });
    const tcp = simulate(cfg, { mode: 'inbound', listener: 'main_internal', address: '192.168.195.248', port: 800, protocol: 'tcp' });
    expect(tcp).toMatchObject({ filterChain: 'direct-tcp', cluster: 'encap' });
  });
});

describe('gateway-routes-config_dump.json (+ endpoints-config_dump.json)', () => {
  const routes = read('gateway-routes-config_dump.json');
  // No listeners in this dump.
  it('full simulation → no listener matched', () => {
    expect(simulate(routes, { mode: 'gateway', port: 8080 }).error).toBe('no listener matched');
  });
  // Route config http.8080 sets ignore_port_in_host_matching, so "httpbin.example.com:8080" matches the vhost
  // "httpbin.example.com:80" (domain httpbin.example.com); its route prefix /get (case-sensitive) goes to
  // outbound|8000||httpbin.default.svc.cluster.local with istio.config …/default/virtual-service/httpbin.
  // endpoints-config_dump.json lists that cluster's one endpoint 10.244.0.178:80.
  it('http.8080: /get on httpbin.example.com:8080 → httpbin cluster, VS default/httpbin, endpoint from the EDS dump', () => {
    const eps = read('endpoints-config_dump.json');
    const cfg = { ...routes, endpoints: eps.endpoints };
    const r = simulateRoute(cfg, 'http.8080', { mode: 'gateway', port: 8080, host: 'httpbin.example.com:8080', path: '/get?show_env=1' });
    expect(r).toMatchObject({
      routeConfig: 'http.8080',
      virtualHost: 'httpbin.example.com:80',
      route: '',
      cluster: 'outbound|8000||httpbin.default.svc.cluster.local',
      endpoints: ['10.244.0.178:80'],
      source: { kind: 'VirtualService', namespace: 'default', name: 'httpbin' },
    });
  });
  it('http.8080: /GET does not match the case-sensitive prefix /get → no route matched', () => {
    const r = simulateRoute(routes, 'http.8080', { mode: 'gateway', port: 8080, host: 'httpbin.example.com', path: '/GET' });
    expect(r.error).toBe('no route matched');
    expect(r.rejected).toContainEqual({ hop: 'route', name: '', index: 0, reason: 'path /GET does not match prefix /get' });
  });
  it('http.8080: another host → no virtual host matched', () => {
    expect(simulateRoute(routes, 'http.8080', { mode: 'gateway', port: 8080, host: 'other.example.com' }).error).toBe(
      'no virtual host matched',
    );
  });
});

describe('endpoints-config_dump.json', () => {
  // Only EDS: nothing to walk from; reviews has three endpoints 10.244.0.192/193/195:9080.
  it('no listener matched; the reviews ClusterLoadAssignment is readable', () => {
    const cfg = read('endpoints-config_dump.json');
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.0.1', port: 9080 }).error).toBe('no listener matched');
    expect(
      clusterEndpoints(
        cfg.clusters,
        cfg.endpoints,
        'outbound|9080||reviews.default.svc.cluster.local',
        normalizeRequest({ mode: 'outbound', port: 9080 }),
      ).endpoints,
    ).toEqual(['10.244.0.192:9080', '10.244.0.193:9080', '10.244.0.195:9080']);
  });
});
