// Bookinfo productpage sidecar, from Istio's Bookinfo manifests as they are.
import { describe, expect, it } from 'vitest';
import { EXT } from '../../../envoy/typeUrls';
import { buildSidecarListeners } from './index';
import { encodeAll, listener, terminal } from './testing';
import { bookinfoServices, makeView } from './testView';

function productpage() {
  const services = bookinfoServices();
  const pp = services.find((s) => s.name === 'productpage');
  if (!pp) throw new Error('fixture has no productpage Service');
  return makeView({
    proxy: {
      id: 'productpage-v1-1.default',
      name: 'productpage-v1-1',
      labels: { app: 'productpage', version: 'v1' },
      ips: ['10.244.0.21'],
    },
    services,
    serviceTargets: [{ service: pp, port: pp.ports[0] as (typeof pp.ports)[number], targetPort: 9080 }],
  });
}

describe('buildSidecarListeners: Bookinfo productpage', () => {
  const out = buildSidecarListeners(productpage());

  it('builds one shared 0.0.0.0_9080 listener for the four HTTP services plus the two virtual listeners (listener.go buildSidecarOutboundListener: HTTP+HTTP on one key, first wins)', () => {
    expect(out.listeners.map((l) => l.name)).toEqual(['0.0.0.0_9080', 'virtualInbound', 'virtualOutbound']);
    expect(out.httpRoutePorts).toEqual([9080]);
    expect(out.sniffedRoutes).toEqual([]);
    expect(out.errors).toEqual([]);
  });

  it('0.0.0.0_9080 is an HCM on RDS "9080" over ADS behind ALPN http/1.1,h2c, with PassthroughFilterChain as default (listener.go buildSidecarOutboundHTTPListenerOpts, buildListenerFromEntry)', () => {
    const l = listener(out.listeners, '0.0.0.0_9080');
    expect(l.address).toEqual({ socketAddress: { address: '0.0.0.0', portValue: 9080 } });
    expect(l.bindToPort).toBe(false);
    expect(l.trafficDirection).toBe('OUTBOUND');
    expect(l.continueOnListenerFiltersTimeout).toBe(true);
    expect(l.listenerFilters?.map((f) => f.name)).toEqual(['envoy.filters.listener.http_inspector']);
    expect(l.filterChains).toHaveLength(1);
    const chain = l.filterChains?.[0];
    expect(chain?.filterChainMatch).toEqual({ applicationProtocols: ['http/1.1', 'h2c'], transportProtocol: 'raw_buffer' });
    const hcm = terminal(chain);
    expect(hcm['@type']).toBe(EXT.hcm);
    expect(hcm.statPrefix).toBe('outbound_0.0.0.0_9080;');
    expect(hcm.rds).toEqual({ configSource: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, routeConfigName: '9080' });
    const filters = (hcm.httpFilters as { name: string }[]).map((f) => f.name);
    // listener_builder.go buildHTTPConnectionManager, sidecar outbound class, default flags.
    expect(filters).toEqual([
      'istio.metadata_exchange',
      'envoy.filters.http.grpc_stats',
      'istio.alpn',
      'envoy.filters.http.fault',
      'envoy.filters.http.cors',
      'istio.stats',
      'envoy.filters.http.router',
    ]);
    expect(l.defaultFilterChain?.name).toBe('PassthroughFilterChain');
    expect(terminal(l.defaultFilterChain)).toMatchObject({
      '@type': EXT.tcpProxy,
      cluster: 'PassthroughCluster',
      statPrefix: 'PassthroughCluster',
    });
  });

  it('virtualInbound has chain 0.0.0.0_9080 (destination port 9080) whose inline route config inbound|9080|| routes to inbound|9080|| (listener_inbound.go, httproute.go buildSidecarInboundHTTPRouteConfig)', () => {
    const l = listener(out.listeners, 'virtualInbound');
    // PERMISSIVE (no PeerAuthentication): the mTLS chain, then the plaintext one (filterchain_options.go)
    const chains = (l.filterChains ?? []).filter((c) => c.name === '0.0.0.0_9080');
    expect(chains).toHaveLength(2);
    expect(chains[0]?.filterChainMatch?.transportProtocol).toBe('tls');
    expect(chains[1]?.filterChainMatch).toEqual({ destinationPort: 9080, transportProtocol: 'raw_buffer' });
    const hcm = terminal(chains[1]);
    expect(hcm.statPrefix).toBe('inbound_0.0.0.0_9080;');
    expect(hcm.routeConfig.name).toBe('inbound|9080||');
    const vh = hcm.routeConfig.virtualHosts[0];
    expect(vh.name).toBe('inbound|http|9080');
    expect(vh.domains).toEqual(['*']);
    expect(vh.routes[0]).toMatchObject({
      name: 'default',
      match: { prefix: '/' },
      route: { cluster: 'inbound|9080||', timeout: '0s', retryPolicy: { retryOn: 'reset-before-request', numRetries: 2 } },
      decorator: { operation: 'productpage.default.svc.cluster.local:9080/*' },
    });
  });

  it('every listener encodes as envoy.config.listener.v3.Listener, with Envoy field names', () => {
    const json = encodeAll(out.listeners);
    const l = json.get('0.0.0.0_9080') as any;
    expect(l.filter_chains[0].filters[0].typed_config.rds.route_config_name).toBe('9080');
    expect(l.bind_to_port).toBe(false);
    expect(l.default_filter_chain.name).toBe('PassthroughFilterChain');
    const vi = json.get('virtualInbound') as any;
    expect(vi.address.socket_address.port_value).toBe(15006);
  });

  it('is deterministic: the same view gives the same listeners', () => {
    expect(buildSidecarListeners(productpage())).toEqual(out);
  });
});
