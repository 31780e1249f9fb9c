// Gateway LDS through translateProxy on a parsed mesh; expectations from networking/core/gateway.go
// (buildGatewayListeners, createGatewayHTTPFilterChainOpts, createGatewayTCPFilterChainOpts,
// buildGatewayNetworkFiltersFromTCPRoutes / FromTLSRoutes), listener.go (buildGatewayListener,
// BuildListenerTLSContext), model/gateway.go (mergeGateways) and istio-translation.md §6.
import { describe, expect, it } from 'vitest';
import type { FilterChainJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { backend, gatewayMesh } from './testing';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const gw = (servers: string, name = 'gw', created = '2024-01-01T00:00:00Z') => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: { name: ${name}, namespace: shop, creationTimestamp: "${created}" }
spec:
  selector: { istio: ingressgateway }
  servers:
${servers}`;
const doc = (kind: string, name: string, spec: string) =>
  `apiVersion: networking.istio.io/v1\nkind: ${kind}\nmetadata: { name: ${name}, namespace: shop }\nspec:\n${spec}`;
const hcmOf = (fc: FilterChainJson | undefined): Any => (fc?.filters?.[0]?.typedConfig ?? {}) as Any;

const HTTPS = `  - port: { number: 443, name: https, protocol: HTTPS }
    hosts: [shop.example.com]
    tls: { mode: SIMPLE, credentialName: shop-cert }
  - port: { number: 80, name: http, protocol: HTTP }
    hosts: [shop.example.com]
    tls: { httpsRedirect: true }
`;

describe('gateway listeners', () => {
  it('plaintext HTTP: listener 0.0.0.0_<resolved>, OUTBOUND, no default chain, one match-all HCM chain on http.<port> (use_remote_address, SANITIZE_SET)', () => {
    const m = gatewayMesh([gw(`  - port: { number: 80, name: http, protocol: HTTP }\n    hosts: ["*"]\n`)]);
    const l = m.listener('0.0.0.0_8080');
    expect(l).toMatchObject({ address: { socketAddress: { address: '0.0.0.0', portValue: 8080 } }, trafficDirection: 'OUTBOUND' });
    expect(l?.defaultFilterChain).toBeUndefined();
    expect(l?.listenerFilters).toBeUndefined();
    expect(l?.filterChains).toHaveLength(1);
    expect(l?.filterChains?.[0]?.filterChainMatch).toBeUndefined();
    expect(l?.filterChains?.[0]?.transportSocketConnectTimeout).toBe('15s');
    expect(hcmOf(l?.filterChains?.[0])).toMatchObject({
      statPrefix: 'outbound_0.0.0.0_8080;',
      rds: { routeConfigName: 'http.8080', configSource: { ads: {} } },
      useRemoteAddress: true,
      forwardClientCertDetails: 'SANITIZE_SET',
      serverName: 'istio-envoy',
    });
  });

  it('HTTPS with credentialName: chain by server_names, DownstreamTlsContext referencing kubernetes://<name> over ADS SDS, RDS https.443.https.gw.shop, TLS inspector', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw(HTTPS),
      doc(
        'VirtualService',
        'web',
        '  hosts: [shop.example.com]\n  gateways: [gw]\n  http: [{ route: [{ destination: { host: web } }] }]\n',
      ),
    ]);
    const l = m.listener('0.0.0.0_8443');
    expect(l?.listenerFilters?.map((f) => f.name)).toEqual(['envoy.filters.listener.tls_inspector']);
    const fc = l?.filterChains?.[0];
    expect(fc?.filterChainMatch).toEqual({ serverNames: ['shop.example.com'] });
    expect(fc?.transportSocket?.name).toBe('envoy.transport_sockets.tls');
    expect(fc?.transportSocket?.typedConfig).toMatchObject({
      commonTlsContext: {
        alpnProtocols: ['h2', 'http/1.1'],
        tlsCertificateSdsSecretConfigs: [{ name: 'kubernetes://shop-cert', sdsConfig: { ads: {}, resourceApiVersion: 'V3' } }],
      },
      requireClientCertificate: false,
    });
    expect(hcmOf(fc).rds.routeConfigName).toBe('https.443.https.gw.shop');
    // the HTTPS route config carries the server port in vhost names; the HTTP one redirects (require_tls ALL)
    expect(m.route('https.443.https.gw.shop')?.virtualHosts?.map((v) => [v.name, v.requireTls])).toEqual([
      ['shop.example.com:443', undefined],
    ]);
    expect(m.route('http.8080')?.virtualHosts?.map((v) => [v.name, v.requireTls, v.routes?.length])).toEqual([
      ['shop.example.com:80', 'ALL', 1],
    ]);
    for (const x of m.table.listeners) expect(() => encodeResource(TYPE.listener, x.name ?? '', x)).not.toThrow();
  });

  it('httpsRedirect server host without any VirtualService still gets a redirect-only vhost', () => {
    const m = gatewayMesh([gw(HTTPS)]);
    expect(m.route('http.8080')?.virtualHosts).toEqual([
      { name: 'shop.example.com:80', domains: ['shop.example.com'], includeRequestAttemptCount: true, requireTls: 'ALL' },
    ]);
    expect(m.route('https.443.https.gw.shop')?.virtualHosts?.map((v) => v.name)).toEqual(['blackhole:443']);
  });

  it('MUTUAL: client certificate required, CA from <credential>-cacert over SDS', () => {
    const m = gatewayMesh([
      gw(
        `  - port: { number: 443, name: https, protocol: HTTPS }\n    hosts: ["*"]\n    tls: { mode: MUTUAL, credentialName: c, minProtocolVersion: TLSV1_2 }\n`,
      ),
    ]);
    const tls = m.listener('0.0.0.0_8443')?.filterChains?.[0]?.transportSocket?.typedConfig as Any;
    expect(tls.requireClientCertificate).toBe(true);
    expect(tls.commonTlsContext.combinedValidationContext.validationContextSdsSecretConfig.name).toBe('kubernetes://c-cacert');
    expect(tls.commonTlsContext.tlsParams).toEqual({ tlsMinimumProtocolVersion: 'TLSv1_2' });
    // hosts ["*"]: a match-all chain (isMatchAll) — still a TLS inspector because the TLS context offers ALPN
    expect(m.listener('0.0.0.0_8443')?.filterChains?.[0]?.filterChainMatch).toBeUndefined();
    expect(m.listener('0.0.0.0_8443')?.listenerFilters).toHaveLength(1);
  });

  it('TLS servers with a duplicate host on one port: the newer server is skipped with a warning (mergeGateways CheckDuplicates)', () => {
    const s = (name: string) =>
      `  - port: { number: 443, name: ${name}, protocol: HTTPS }\n    hosts: [shop.example.com]\n    tls: { mode: SIMPLE, credentialName: ${name} }\n`;
    const m = gatewayMesh([gw(s('a'), 'old', '2024-01-01T00:00:00Z'), gw(s('b'), 'new', '2024-01-02T00:00:00Z')]);
    const chains = m.listener('0.0.0.0_8443')?.filterChains ?? [];
    expect(chains.map((c) => hcmOf(c).rds.routeConfigName)).toEqual(['https.443.a.old.shop']);
    expect(m.table.errors).toContainEqual(
      expect.objectContaining({ object: 'Gateway shop/new', path: 'spec.servers[0]', severity: 'warning' }),
    );
  });

  it('TLS PASSTHROUGH: one network chain per tls match, server_names = sniHosts, no TLS context, tcp_proxy to the destination (server port default)', () => {
    const m = gatewayMesh([
      backend('db', 'shop', 443, 'https'),
      gw(`  - port: { number: 443, name: tls, protocol: TLS }\n    hosts: ["*.example.com"]\n    tls: { mode: PASSTHROUGH }\n`),
      doc(
        'VirtualService',
        'db',
        `  hosts: [db.example.com, other.example.com]\n  gateways: [gw]\n  tls:\n  - match: [{ sniHosts: [db.example.com], port: 443 }]\n    route: [{ destination: { host: db.shop.svc.cluster.local } }]\n  - match: [{ sniHosts: [other.example.com], port: 8443 }]\n    route: [{ destination: { host: db.shop.svc.cluster.local } }]\n`,
      ),
    ]);
    const l = m.listener('0.0.0.0_8443');
    expect(l?.listenerFilters?.map((f) => f.name)).toEqual(['envoy.filters.listener.tls_inspector']);
    expect(l?.filterChains).toHaveLength(1);
    const fc = l?.filterChains?.[0];
    expect(fc?.filterChainMatch).toEqual({ serverNames: ['db.example.com'] });
    expect(fc?.transportSocket).toBeUndefined();
    expect(fc?.filters?.at(-1)?.typedConfig).toMatchObject({
      cluster: 'outbound|443||db.shop.svc.cluster.local',
      statPrefix: 'outbound|443||db.shop.svc.cluster.local',
    });
    expect(m.table.routes).toEqual([]);
  });

  it('TCP server: tcp_proxy from the first bound VirtualService tcp route matching port and gateway; match-all chain, no inspector', () => {
    const m = gatewayMesh([
      backend('mysql', 'shop', 3306, 'tcp'),
      gw(`  - port: { number: 31400, name: tcp, protocol: TCP }\n    hosts: ["*"]\n`),
      doc(
        'VirtualService',
        'mysql',
        `  hosts: ["*"]\n  gateways: [gw]\n  tcp:\n  - match: [{ port: 1 }]\n    route: [{ destination: { host: nowhere } }]\n  - match: [{ port: 31400 }]\n    route: [{ destination: { host: mysql.shop.svc.cluster.local, port: { number: 3306 } } }]\n`,
      ),
    ]);
    const l = m.listener('0.0.0.0_31400');
    expect(l?.listenerFilters).toBeUndefined();
    expect(l?.filterChains?.map((c) => [c.filterChainMatch, (c.filters?.at(-1)?.typedConfig as Any).cluster])).toEqual([
      [undefined, 'outbound|3306||mysql.shop.svc.cluster.local'],
    ]);
  });

  it('TCP server with no matching tcp route: the listener is omitted (no chains) and a warning names the server', () => {
    const m = gatewayMesh([gw(`  - port: { number: 31400, name: tcp, protocol: TCP }\n    hosts: ["*"]\n`)]);
    expect(m.table.listeners).toEqual([]);
    expect(m.table.errors).toContainEqual(expect.objectContaining({ object: 'Gateway shop/gw', path: 'spec.servers[0]' }));
  });

  it('HTTP then TCP on one port and bind: conflicting protocols, the older server wins (mergeGateways canMergeProtocols)', () => {
    const m = gatewayMesh([
      gw(
        `  - port: { number: 80, name: http, protocol: HTTP }\n    hosts: ["*"]\n  - port: { number: 80, name: tcp, protocol: TCP }\n    hosts: ["*"]\n`,
      ),
    ]);
    expect(m.listener('0.0.0.0_8080')?.filterChains?.map((c) => c.filters?.at(-1)?.name)).toEqual([
      'envoy.filters.network.http_connection_manager',
    ]);
    expect(m.table.errors).toContainEqual(expect.objectContaining({ path: 'spec.servers[1]', severity: 'warning' }));
  });

  it('bind: listener <bind>_<port> and RDS http.<port>.<bind>', () => {
    const m = gatewayMesh([gw(`  - port: { number: 80, name: http, protocol: HTTP }\n    bind: 10.0.0.7\n    hosts: ["*"]\n`)]);
    expect(m.table.listeners.map((l) => l.name)).toEqual(['10.0.0.7_8080']);
    expect(m.table.routes.map((r) => r.name)).toEqual(['http.8080.10.0.0.7']);
  });

  it('HTTPS and TLS passthrough servers on one port share the listener: chains appended in server order', () => {
    const m = gatewayMesh([
      backend('db', 'shop', 443, 'https'),
      gw(
        `  - port: { number: 443, name: https, protocol: HTTPS }\n    hosts: [shop.example.com]\n    tls: { mode: SIMPLE, credentialName: c }\n  - port: { number: 443, name: tls, protocol: TLS }\n    hosts: [db.example.com]\n    tls: { mode: PASSTHROUGH }\n`,
      ),
      doc(
        'VirtualService',
        'db',
        `  hosts: [db.example.com]\n  gateways: [gw]\n  tls:\n  - match: [{ sniHosts: [db.example.com] }]\n    route: [{ destination: { host: db.shop.svc.cluster.local } }]\n`,
      ),
    ]);
    expect(m.listener('0.0.0.0_8443')?.filterChains?.map((c) => [c.filterChainMatch?.serverNames, c.filters?.at(-1)?.name])).toEqual([
      [['shop.example.com'], 'envoy.filters.network.http_connection_manager'],
      [['db.example.com'], 'envoy.filters.network.tcp_proxy'],
    ]);
  });

  it('TLS termination on a TCP server (protocol TLS, SIMPLE): SNI chain with the TLS context and tcp_proxy from the tcp route', () => {
    const m = gatewayMesh([
      backend('mysql', 'shop', 3306, 'tcp'),
      gw(
        `  - port: { number: 443, name: tls, protocol: TLS }\n    hosts: [db.example.com]\n    tls: { mode: SIMPLE, credentialName: db-cert }\n`,
      ),
      doc(
        'VirtualService',
        'db',
        `  hosts: [db.example.com]\n  gateways: [gw]\n  tcp:\n  - route: [{ destination: { host: mysql.shop.svc.cluster.local } }]\n`,
      ),
    ]);
    const fc = m.listener('0.0.0.0_8443')?.filterChains?.[0];
    expect(fc?.filterChainMatch).toEqual({ serverNames: ['db.example.com'] });
    expect((fc?.transportSocket?.typedConfig as Any).commonTlsContext.tlsCertificateSdsSecretConfigs[0].name).toBe('kubernetes://db-cert');
    expect(fc?.filters?.at(-1)?.typedConfig).toMatchObject({ cluster: 'outbound|3306||mysql.shop.svc.cluster.local' });
  });

  it('AUTO_PASSTHROUGH: a chain per matching service port (and DestinationRule subset) by SNI-DNAT name, Istio mTLS ALPNs only', () => {
    const m = gatewayMesh([
      backend('web', 'shop', 80),
      doc('DestinationRule', 'web', '  host: web\n  subsets: [{ name: v1, labels: { version: v1 } }]\n'),
      gw(
        `  - port: { number: 15443, name: tls, protocol: TLS }\n    hosts: ["*.shop.svc.cluster.local"]\n    tls: { mode: AUTO_PASSTHROUGH }\n`,
      ),
    ]);
    const chains = m.listener('0.0.0.0_15443')?.filterChains ?? [];
    expect(chains.map((c) => [c.filterChainMatch?.serverNames, (c.filters?.at(-1)?.typedConfig as Any).cluster])).toEqual([
      [['outbound_.80_._.web.shop.svc.cluster.local'], 'outbound_.80_._.web.shop.svc.cluster.local'],
      [['outbound_.80_.v1_.web.shop.svc.cluster.local'], 'outbound_.80_.v1_.web.shop.svc.cluster.local'],
    ]);
    expect(chains[0]?.filterChainMatch?.applicationProtocols).toEqual([
      'istio',
      'istio-peer-exchange',
      'istio-http/1.0',
      'istio-http/1.1',
      'istio-h2',
    ]);
  });
});
