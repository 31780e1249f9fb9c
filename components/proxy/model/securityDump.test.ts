// The Security tab's reading of a config dump: an inbound chain terminating TLS with a required client
// certificate is mTLS (Istio's STRICT/PERMISSIVE mTLS chains), a `tls` transport match without a TLS context
// is passed through; clusters with transport_socket_matches on tlsMode istio are auto mTLS (cluster_tls.go).
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { clusterTls, inboundTls } from './securityDump';

const tls = (require: boolean) => ({
  name: 'envoy.transport_sockets.tls',
  typed_config: {
    '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
    require_client_certificate: require,
  },
});

describe('Security tab: transport security from the dump', () => {
  it('groups virtualInbound chains per port and names the mode', () => {
    const listeners = [
      {
        name: 'virtualInbound',
        filter_chains: [
          { name: 'virtualInbound-blackhole', filter_chain_match: { destination_port: 15006 } },
          {
            name: 'a',
            filter_chain_match: { destination_port: 9080, transport_protocol: 'tls', application_protocols: ['istio-http/1.1'] },
            transport_socket: tls(true),
          },
          {
            name: 'b',
            filter_chain_match: { destination_port: 9080, transport_protocol: 'raw_buffer' },
            filters: [{ name: 'envoy.filters.network.rbac' }],
          },
          { name: 'c', filter_chain_match: { destination_port: 8443, transport_protocol: 'tls' }, transport_socket: tls(true) },
          { name: 'd', filter_chain_match: { destination_port: 7000, transport_protocol: 'tls' } },
        ],
      },
    ];
    const rows = inboundTls({ listeners: listeners as unknown as EnvoyConfig['listeners'], routes: [], clusters: [], endpoints: [] });
    expect(rows.map((r) => [r.port, r.summary])).toEqual([
      [7000, 'plaintext only (no TLS-terminating chain)'],
      [8443, 'TLS only (STRICT)'],
      [9080, 'mTLS and plaintext (PERMISSIVE)'],
    ]);
    expect(rows[2]?.chains).toEqual([
      { chain: 'a', transport: 'mTLS', alpn: ['istio-http/1.1'], rbacFilters: 0 },
      { chain: 'b', transport: 'plaintext', alpn: [], rbacFilters: 1 },
    ]);
    expect(rows[0]?.chains[0]?.transport).toBe('TLS (passed through)');
  });

  it('clusters: auto mTLS, a TLS transport socket with its SNI, or plaintext', () => {
    const clusters = [
      { name: 'auto', transport_socket_matches: [{ name: 'tlsMode-istio', match: { tlsMode: 'istio' } }] },
      {
        name: 'dr',
        transport_socket: {
          name: 'envoy.transport_sockets.tls',
          typed_config: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext', sni: 'x.example' },
        },
      },
      { name: 'plain' },
    ];
    expect(clusterTls({ listeners: [], routes: [], clusters: clusters as unknown as EnvoyConfig['clusters'], endpoints: [] })).toEqual([
      { cluster: 'auto', mode: 'auto mTLS (ISTIO_MUTUAL to endpoints labelled tlsMode: istio)' },
      { cluster: 'dr', mode: 'TLS (transport socket)', sni: 'x.example' },
      { cluster: 'plain', mode: 'plaintext (no transport socket)' },
    ]);
  });
});
