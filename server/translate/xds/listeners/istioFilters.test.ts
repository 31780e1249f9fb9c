// Istio's default HTTP and network filter stacks on Bookinfo productpage's sidecar, checked against istiod's
// builders (listener_builder.go buildHTTPConnectionManager + appendMxFilter; networkfilter.go
// buildCompleteNetworkFilters; listener_inbound.go buildInboundNetworkFiltersForHTTP, buildInboundBlackhole;
// listener_builder.go blackholeFilterChain / buildOutboundCatchAllNetworkFiltersOnly) and the filter configs
// of pilot/pkg/xds/filters/filters.go, as the real config dumps in ../shared show them.
import { describe, expect, it } from 'vitest';
import type { FilterChainJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import { buildSidecarListeners } from './index';
import { istioHttpFilters } from './istioFilters';
import { encodeAll, listener } from './testing';
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
const names = (c: FilterChainJson | undefined) => (c?.filters ?? []).map((f) => f.name);
const httpNames = (c: FilterChainJson | undefined) =>
  ((c?.filters?.at(-1)?.typedConfig as { httpFilters?: { name: string }[] }).httpFilters ?? []).map((f) => f.name);

describe('Istio default filter stacks (sidecar)', () => {
  const out = buildSidecarListeners(productpage());
  const inbound = listener(out.listeners, 'virtualInbound');
  const outbound = listener(out.listeners, 'virtualOutbound');

  it('inbound HTTP chain: metadata exchange then the HCM; HCM filters without istio.alpn (ALPN filter is not on sidecar inbound)', () => {
    const chain = inbound.filterChains?.find(
      (c) => c.filterChainMatch?.destinationPort === 9080 && c.filterChainMatch.transportProtocol === 'raw_buffer',
    );
    expect(names(chain)).toEqual(['istio.metadata_exchange', 'envoy.filters.network.http_connection_manager']);
    expect(httpNames(chain)).toEqual([
      'istio.metadata_exchange',
      'envoy.filters.http.grpc_stats',
      'envoy.filters.http.fault',
      'envoy.filters.http.cors',
      'istio.stats',
      'envoy.filters.http.router',
    ]);
  });

  it('inbound blackhole and passthrough TCP chains: metadata exchange, istio.stats, tcp_proxy (buildInboundBlackhole, buildCompleteNetworkFilters includeMx)', () => {
    const bh = inbound.filterChains?.find((c) => c.name === 'virtualInbound-blackhole');
    expect(names(bh)).toEqual(['istio.metadata_exchange', 'istio.stats', 'envoy.filters.network.tcp_proxy']);
    const tcp = inbound.filterChains?.find((c) => c.name === 'virtualInbound' && c.filterChainMatch?.transportProtocol === 'raw_buffer');
    expect(names(tcp)).toEqual(['istio.metadata_exchange', 'istio.stats', 'envoy.filters.network.tcp_proxy']);
  });

  it('virtualOutbound blackhole and catch-all chains: istio.stats then tcp_proxy, no metadata exchange (outbound MX lives on clusters)', () => {
    for (const c of outbound.filterChains ?? []) expect(names(c)).toEqual(['istio.stats', 'envoy.filters.network.tcp_proxy']);
  });

  it("the Istio-private configs are TypedStructs with istiod's fields, and every listener still encodes", () => {
    const json = encodeAll(out.listeners);
    const f = istioHttpFilters('SIDECAR_INBOUND')[0]?.typedConfig as Record<string, unknown>;
    expect(f).toEqual({
      '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
      typeUrl: 'type.googleapis.com/io.istio.http.peer_metadata.Config',
      value: { downstream_discovery: [{ istio_headers: {} }, { workload_discovery: {} }], downstream_propagation: [{ istio_headers: {} }] },
    });
    // telemetry.go disableHostHeaderFallback: inbound and gateway only.
    const stats = (cls: 'SIDECAR_INBOUND' | 'SIDECAR_OUTBOUND' | 'GATEWAY') =>
      (istioHttpFilters(cls).find((x) => x.name === 'istio.stats')?.typedConfig as { value: unknown }).value;
    expect([stats('SIDECAR_INBOUND'), stats('SIDECAR_OUTBOUND'), stats('GATEWAY')]).toEqual([
      { disable_host_header_fallback: true },
      {},
      { disable_host_header_fallback: true },
    ]);
    // Gateways get the outbound (upstream) metadata exchange and istio.alpn (appendMxFilter, ALPNFilter).
    expect(istioHttpFilters('GATEWAY').map((x) => x.name)).toContain('istio.alpn');
    expect(JSON.stringify(json.get('virtualInbound'))).toContain(
      '"type_url":"type.googleapis.com/envoy.tcp.metadataexchange.config.MetadataExchange"',
    );
  });
});
