// Bookinfo + destination-rule-all-mtls.yaml + a mesh-wide STRICT PeerAuthentication, through the real CLI
// (bin/meshscope.mjs) as a user runs it. Expectations are Istio's rules:
// - DestinationRule tls ISTIO_MUTUAL is user-supplied TLS (cluster_tls.go buildUpstreamTLSSettings →
//   applyUpstreamTLSSettings): a plain transport_socket (UpstreamTlsContext, SDS `default` / `ROOTCA`,
//   SNI `outbound_.PORT_.SUBSET_.HOST`, SANs = the service's spiffe identities, ALPN istio-peer-exchange/istio);
// - STRICT keeps only TLS-terminating inbound chains (filterchain_options.go inboundStrict*FilterChainMatchOptions),
//   each with BuildInboundTLS's DownstreamTlsContext requiring a client certificate;
// - Istio's simulator (pilot/pkg/simulation/traffic.go): plaintext to a STRICT port matches no chain
//   (peer_authentication_simulation_test.go "global strict": ErrNoFilterChain); an mTLS client reaches the
//   inbound cluster; plain TLS to an mTLS chain is "invalid mTLS" (requiresMTLS).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { cliJson } from './cliRun';

const CONFIG = [
  '--config',
  bookinfo('platform', 'bookinfo.yaml'),
  '--config',
  bookinfo('networking', 'destination-rule-all-mtls.yaml'),
  '--config',
  join(REPO_ROOT, 'server', 'acceptance', 'testdata', 'mtls', 'peer-authentication-strict.yaml'),
];
type J = Record<string, any>;

const proxies = cliJson<{ id: string; labels: Record<string, string> }[]>(['proxies', ...CONFIG, '-o', 'json']);
const idOf = (app: string) => {
  const p = proxies.find((x) => x.labels['app'] === app && (x.labels['version'] ?? 'v1') === 'v1');
  if (!p) throw new Error(`no ${app} proxy`);
  return p.id;
};
const section = (dump: J, kind: string): J => dump['configs'].find((c: J) => c['@type'].endsWith(kind));
const typedTls = (socket: J | undefined): J => socket?.['typed_config'] ?? {};

describe('Bookinfo, destination-rule-all-mtls.yaml, STRICT mesh-wide PeerAuthentication', () => {
  it('translate: every Bookinfo outbound cluster has an ISTIO_MUTUAL transport socket', () => {
    const dump = cliJson<J>(['translate', ...CONFIG, '--proxy', idOf('productpage'), '--type', 'clusters']);
    const clusters: J[] = section(dump, 'ClustersConfigDump')['dynamic_active_clusters'].map((c: J) => c['cluster']);
    const outbound = clusters.filter((c) => c['name'].startsWith('outbound|9080|'));
    // 4 default clusters + the subsets of destination-rule-all-mtls.yaml (productpage v1, reviews v1-v3, ratings v1 v2 v2-mysql v2-mysql-vm, details v1 v2)
    expect(outbound).toHaveLength(14);
    for (const c of outbound) {
      const [, port, subset, host] = c['name'].split('|');
      expect(c['transport_socket_matches'], c['name']).toBeUndefined();
      expect(c['transport_socket']?.['name'], c['name']).toBe('envoy.transport_sockets.tls');
      const t = typedTls(c['transport_socket']);
      expect(t['@type']).toBe('type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext');
      expect(t['sni']).toBe(`outbound_.${port}_.${subset}_.${host}`);
      const common = t['common_tls_context'];
      expect(common['alpn_protocols']).toEqual(['istio-peer-exchange', 'istio']);
      expect(common['tls_certificate_sds_secret_configs'].map((s: J) => s['name'])).toEqual(['default']);
      expect(common['combined_validation_context']['validation_context_sds_secret_config']['name']).toBe('ROOTCA');
      const app = host.split('.')[0];
      expect(common['combined_validation_context']['default_validation_context']['match_subject_alt_names']).toEqual([
        { exact: `spiffe://cluster.local/ns/default/sa/bookinfo-${app}` },
      ]);
    }
  });

  it('translate: the reviews sidecar has only TLS inbound chains (besides the 15006 blackhole), all requiring client certificates', () => {
    const dump = cliJson<J>(['translate', ...CONFIG, '--proxy', idOf('reviews'), '--type', 'listeners']);
    const listeners: J[] = section(dump, 'ListenersConfigDump')['dynamic_listeners'].map((l: J) => l['active_state']['listener']);
    const vi = listeners.find((l) => l['name'] === 'virtualInbound')!;
    const chains: J[] = vi['filter_chains'].filter((c: J) => c['name'] !== 'virtualInbound-blackhole');
    expect(chains.map((c) => c['name'])).toEqual(['virtualInbound-catchall-http', 'virtualInbound', '0.0.0.0_9080']);
    for (const c of chains) {
      expect(c['filter_chain_match']['transport_protocol'], c['name']).toBe('tls');
      const t = typedTls(c['transport_socket']);
      expect(t['@type']).toBe('type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext');
      expect(t['require_client_certificate']).toBe(true);
      expect(t['common_tls_context']['tls_certificate_sds_secret_configs'][0]['name']).toBe('default');
    }
  });

  const sim = (tls: string) =>
    cliJson<J>([
      'simulate',
      ...CONFIG,
      '--proxy',
      idOf('reviews'),
      '--mode',
      'inbound',
      '--port',
      '9080',
      '--host',
      'reviews:9080',
      '--tls',
      tls,
    ]);

  it('simulate --tls plaintext on the STRICT port: no filter chain matches, and the result says the port takes only mTLS', () => {
    const r = sim('plaintext');
    expect(r['error']).toBe('no filter chains matched');
    expect(r['rejected']).toContainEqual({
      hop: 'filterChain',
      name: '0.0.0.0_9080',
      index: 3,
      reason: 'transport_protocol tls does not match raw_buffer',
    });
    expect(r['notes'].join('\n')).toContain('port 9080 accepts only TLS from Istio mTLS clients (PeerAuthentication mode STRICT)');
  });

  it('simulate --tls mtls reaches the inbound cluster through the mTLS chain', () => {
    const r = sim('mtls');
    expect(r['error']).toBeUndefined();
    expect(r).toMatchObject({
      listener: 'virtualInbound',
      filterChain: '0.0.0.0_9080',
      routeConfig: 'inbound|9080||',
      cluster: 'inbound|9080||',
    });
  });

  it('simulate --tls tls (no client certificate) is refused by the mTLS chain: invalid mTLS', () => {
    expect(sim('tls')['error']).toBe('invalid mTLS');
  });
});
