// virtualInbound (listener_inbound.go; filterchain_options.go: without PeerAuthentication the mode is PERMISSIVE,
// so every port gets its mTLS chains and its plaintext ones). Modes per PeerAuthentication: ../../security/*.test.ts.
import { describe, expect, it } from 'vitest';
import { buildSidecarListeners } from './index';
import { chainNamed, encodeAll, listener, terminal } from './testing';
import { makeView, svc } from './testView';
import type { ServiceModel } from '../../../model/mesh';

const target = (service: ServiceModel, targetPort: number, i = 0) => ({
  service,
  port: service.ports[i] as ServiceModel['ports'][number],
  targetPort,
});

describe('virtualInbound', () => {
  const web = svc('web', 'default', [[80, 'HTTP']], { address: '10.96.0.3' });
  const db = svc('db', 'default', [[3306, 'TCP']], { address: '10.96.0.4' });
  const auto = svc('auto', 'default', [[7000, 'Unsupported', 'x']], { address: '10.96.0.5' });
  const grpc = svc('rpc', 'default', [[9000, 'GRPC']], { address: '10.96.0.6' });
  const view = makeView({ serviceTargets: [target(web, 8080), target(db, 3306), target(auto, 7000), target(grpc, 9000)] });
  const out = buildSidecarListeners(view);
  const l = listener(out.listeners, 'virtualInbound');

  it('listens on 0.0.0.0:15006, INBOUND, and every chain encodes', () => {
    encodeAll(out.listeners);
    expect(l.address).toEqual({ socketAddress: { address: '0.0.0.0', portValue: 15006 } });
    expect(l.trafficDirection).toBe('INBOUND');
    expect(l.continueOnListenerFiltersTimeout).toBe(true);
    expect(l.listenerFiltersTimeout).toBe('0s');
  });

  it('starts with the blackhole (15006) and the passthrough chains, then service chains by target port', () => {
    expect(l.filterChains?.map((c) => c.name)).toEqual([
      'virtualInbound-blackhole',
      // inboundPermissiveFilterChainMatchWithMxcOptions: mTLS HTTP, plaintext HTTP, mTLS TCP, plaintext TCP, TLS TCP
      'virtualInbound-catchall-http',
      'virtualInbound-catchall-http',
      'virtualInbound',
      'virtualInbound',
      'virtualInbound',
      // inboundPermissiveTCPFilterChainMatchWithMxcOptionsAndPlainTLS
      '0.0.0.0_3306',
      '0.0.0.0_3306',
      '0.0.0.0_3306',
      '0.0.0.0_7000',
      '0.0.0.0_7000',
      '0.0.0.0_7000',
      '0.0.0.0_7000',
      '0.0.0.0_7000',
      // inboundPermissiveHTTPFilterChainMatchWithMxcOptions: mTLS, plaintext
      '0.0.0.0_8080',
      '0.0.0.0_8080',
      '0.0.0.0_9000',
      '0.0.0.0_9000',
    ]);
    expect(terminal(l.filterChains?.[0])).toMatchObject({ cluster: 'BlackHoleCluster' });
    const [mtlsAll, catchAll] = chainNamed(l, 'virtualInbound-catchall-http');
    expect(mtlsAll?.filterChainMatch).toEqual({
      applicationProtocols: ['istio-http/1.0', 'istio-http/1.1', 'istio-h2'],
      transportProtocol: 'tls',
    });
    expect(mtlsAll?.transportSocket?.name).toBe('envoy.transport_sockets.tls');
    expect(catchAll?.filterChainMatch).toEqual({ applicationProtocols: ['http/1.1', 'h2c'], transportProtocol: 'raw_buffer' });
    expect(catchAll?.transportSocket).toBeUndefined();
    expect(terminal(catchAll).routeConfig.virtualHosts[0].routes[0].route.cluster).toBe('InboundPassthroughCluster');
    expect(terminal(catchAll).statPrefix).toBe('InboundPassthroughCluster;');
    for (const c of chainNamed(l, 'virtualInbound'))
      expect(terminal(c)).toMatchObject({ cluster: 'InboundPassthroughCluster', statPrefix: 'InboundPassthroughCluster' });
  });

  it('HTTP target port: an mTLS and a plaintext HCM chain whose vhost is named after the service port and routes to inbound|<targetPort>||', () => {
    const [m, c] = chainNamed(l, '0.0.0.0_8080');
    expect(m?.filterChainMatch).toEqual({
      destinationPort: 8080,
      applicationProtocols: ['istio', 'istio-peer-exchange', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'],
      transportProtocol: 'tls',
    });
    expect(c?.filterChainMatch).toEqual({ destinationPort: 8080, transportProtocol: 'raw_buffer' });
    const rc = terminal(c).routeConfig;
    expect(rc.name).toBe('inbound|8080||');
    expect(rc.virtualHosts[0].name).toBe('inbound|http|80');
    expect(rc.virtualHosts[0].routes[0].route.cluster).toBe('inbound|8080||');
  });

  it('TCP target port: tcp_proxy to inbound|3306|| for mTLS, plaintext and TLS passed through', () => {
    const cs = chainNamed(l, '0.0.0.0_3306');
    expect(cs.map((c) => c.filterChainMatch?.transportProtocol)).toEqual(['tls', 'raw_buffer', 'tls']);
    expect(cs.map((c) => c.transportSocket !== undefined)).toEqual([true, false, false]);
    for (const c of cs) expect(terminal(c)).toMatchObject({ cluster: 'inbound|3306||', statPrefix: 'inbound|3306||' });
  });

  it('sniffed target port: an HCM chain on HTTP ALPNs plus TCP chains', () => {
    const cs = chainNamed(l, '0.0.0.0_7000').filter((c) => c.transportSocket === undefined);
    expect(cs[0]?.filterChainMatch).toEqual({
      destinationPort: 7000,
      applicationProtocols: ['http/1.1', 'h2c'],
      transportProtocol: 'raw_buffer',
    });
    expect(terminal(cs[0]).routeConfig.name).toBe('inbound|7000||');
    expect(terminal(cs[1])).toMatchObject({ cluster: 'inbound|7000||' });
  });

  it('gRPC target port: HTTP/2 options and no inbound retry policy (route.go BuildDefaultHTTPInboundRoute)', () => {
    const hcm = terminal(chainNamed(l, '0.0.0.0_9000')[1]);
    expect(hcm.http2ProtocolOptions).toEqual({});
    expect(hcm.routeConfig.virtualHosts[0].routes[0].route.retryPolicy).toBeUndefined();
  });

  it('listener filters: original_dst, TLS inspector off where no chain matches tls, HTTP inspector off where no chain matches HTTP ALPNs', () => {
    expect(l.listenerFilters?.map((f) => f.name)).toEqual([
      'envoy.filters.listener.original_dst',
      'envoy.filters.listener.tls_inspector',
      'envoy.filters.listener.http_inspector',
    ]);
    const ranges = (p: any) => (p.orMatch ? p.orMatch.rules : [p]).map((r: any) => r.destinationPortRange.start);
    // Passthrough chains (port 0) match tls, so the TLS inspector is on by default, off only for 15006 (every
    // service port has an mTLS chain in PERMISSIVE mode).
    expect(ranges(l.listenerFilters?.[1]?.filterDisabled)).toEqual([15006]);
    // HTTP ALPNs are matched by the passthrough and 7000 chains only.
    expect(ranges(l.listenerFilters?.[2]?.filterDisabled)).toEqual([3306, 8080, 9000, 15006]);
  });

  it('two services on one target port: the first (oldest) wins, a protocol clash is reported', () => {
    const a = svc('a', 'default', [[80, 'HTTP']], { address: '10.96.0.7' });
    const b = svc('b', 'default', [[81, 'TCP']], { address: '10.96.0.8' });
    const o = buildSidecarListeners(makeView({ serviceTargets: [target(a, 8080), target(b, 8080)] }));
    const vi = listener(o.listeners, 'virtualInbound');
    expect(chainNamed(vi, '0.0.0.0_8080')).toHaveLength(2);
    expect(terminal(chainNamed(vi, '0.0.0.0_8080')[1]).routeConfig.virtualHosts[0].name).toBe('inbound|http|80');
    expect(o.errors).toEqual([expect.objectContaining({ severity: 'warning', object: 'Service default/b' })]);
  });

  it('target ports reserved by the sidecar (15006, 15021, 15090, 15001) get no chain', () => {
    const s = svc('s', 'default', [[15090, 'HTTP']], { address: '10.96.0.9' });
    const vi = listener(buildSidecarListeners(makeView({ serviceTargets: [target(s, 15090)] })).listeners, 'virtualInbound');
    expect(chainNamed(vi, '0.0.0.0_15090')).toEqual([]);
  });
});
