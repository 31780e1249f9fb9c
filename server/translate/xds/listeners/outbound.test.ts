// Per-port outbound listeners: expectations from istiod's listener.go / tls.go / networkfilter.go rules.
import { describe, expect, it } from 'vitest';
import { EXT } from '../../../envoy/typeUrls';
import { buildSidecarListeners } from './index';
import { encodeAll, listener, terminal } from './testing';
import { endpoint, makeView, svc, vs } from './testView';

const names = (o: ReturnType<typeof buildSidecarListeners>) => o.listeners.map((l) => l.name).filter((n) => !n?.startsWith('virtual'));
const MYSQL = svc('mysqldb', 'default', [[3306, 'TCP', 'tcp']], { address: '10.96.0.50' });

describe('outbound TCP listeners (listener.go buildSidecarOutboundListener; tls.go buildSidecarOutboundTCPFilterChainOpts)', () => {
  it('a TCP service without VirtualService binds its VIP: <VIP>_3306 with one tcp_proxy chain to outbound|3306||fqdn', () => {
    const out = buildSidecarListeners(makeView({ services: [MYSQL] }));
    encodeAll(out.listeners);
    expect(names(out)).toEqual(['10.96.0.50_3306']);
    const l = listener(out.listeners, '10.96.0.50_3306');
    expect(l.address).toEqual({ socketAddress: { address: '10.96.0.50', portValue: 3306 } });
    expect(l.bindToPort).toBe(false);
    // The only chain is match-all: it stays in filter_chains and there is no default chain or inspector.
    expect(l.filterChains).toHaveLength(1);
    expect(l.filterChains?.[0]?.filterChainMatch).toBeUndefined();
    expect(l.defaultFilterChain).toBeUndefined();
    expect(l.listenerFilters).toBeUndefined();
    expect(l.listenerFiltersTimeout).toBe('0s');
    expect(terminal(l.filterChains?.[0])).toEqual({
      '@type': EXT.tcpProxy,
      statPrefix: 'outbound|3306||mysqldb.default.svc.cluster.local',
      cluster: 'outbound|3306||mysqldb.default.svc.cluster.local',
    });
    expect(out.httpRoutePorts).toEqual([]);
  });

  it('a tcp route without match wins: weighted clusters (weight 0 dropped, stat prefix <vs>.<ns>) and istio.config metadata', () => {
    const rule = vs('mysql', 'default', {
      hosts: ['mysqldb.default.svc.cluster.local'],
      tcp: [
        {
          route: [
            { destination: { host: 'mysqldb.default.svc.cluster.local', subset: 'v1' }, weight: 80 },
            { destination: { host: 'mysqldb.default.svc.cluster.local', subset: 'v2' }, weight: 20 },
            { destination: { host: 'mysqldb.default.svc.cluster.local', subset: 'v3' }, weight: 0 },
          ],
        },
      ],
    });
    const out = buildSidecarListeners(makeView({ services: [MYSQL], virtualServices: [rule] }));
    encodeAll(out.listeners);
    const chain = listener(out.listeners, '10.96.0.50_3306').filterChains?.[0];
    expect(chain?.metadata).toEqual({
      filterMetadata: { istio: { config: '/apis/networking.istio.io/v1/namespaces/default/virtual-service/mysql' } },
    });
    expect(terminal(chain)).toEqual({
      '@type': EXT.tcpProxy,
      statPrefix: 'mysql.default',
      weightedClusters: {
        clusters: [
          { name: 'outbound|3306|v1|mysqldb.default.svc.cluster.local', weight: 80 },
          { name: 'outbound|3306|v2|mysqldb.default.svc.cluster.local', weight: 20 },
        ],
      },
    });
  });

  it('a tcp match whose sourceLabels do not select the proxy is skipped; the next matching route is used (tls.go matchTCP)', () => {
    const rule = vs('mysql', 'default', {
      hosts: ['mysqldb'].map((h) => `${h}.default.svc.cluster.local`),
      tcp: [
        {
          match: [{ sourceLabels: { app: 'other' } }],
          route: [{ destination: { host: 'mysqldb.default.svc.cluster.local', subset: 'blue' } }],
        },
        { match: [{ port: 3306 }], route: [{ destination: { host: 'mysqldb.default.svc.cluster.local', subset: 'green' } }] },
      ],
    });
    const out = buildSidecarListeners(makeView({ services: [MYSQL], virtualServices: [rule] }));
    const l = listener(out.listeners, '10.96.0.50_3306');
    expect(l.filterChains).toHaveLength(1);
    // Single destination: the cluster name is also the stat prefix (networkfilter.go).
    expect(terminal(l.filterChains?.[0])).toMatchObject({
      cluster: 'outbound|3306|green|mysqldb.default.svc.cluster.local',
      statPrefix: 'outbound|3306|green|mysqldb.default.svc.cluster.local',
    });
  });

  it('DestinationRule tcp idleTimeout and consistentHash useSourceIp reach the tcp_proxy (networkfilter.go WithSingleDestination, maybeSetHashPolicy)', () => {
    const out = buildSidecarListeners(
      makeView({
        services: [MYSQL],
        destinationRules: {
          'mysqldb.default.svc.cluster.local': {
            host: 'mysqldb',
            trafficPolicy: { connectionPool: { tcp: { idleTimeout: '1h30m' } }, loadBalancer: { consistentHash: { useSourceIp: true } } },
          },
        },
      }),
    );
    encodeAll(out.listeners);
    expect(terminal(listener(out.listeners, '10.96.0.50_3306').filterChains?.[0])).toMatchObject({
      idleTimeout: '5400s',
      hashPolicy: [{ sourceIp: {} }],
    });
  });

  it('a tcp route destination that is not a visible service is reported, located', () => {
    const rule = vs('mysql', 'default', {
      hosts: ['mysqldb.default.svc.cluster.local'],
      tcp: [{ route: [{ destination: { host: 'nope.default.svc.cluster.local' } }] }],
    });
    const out = buildSidecarListeners(makeView({ services: [MYSQL], virtualServices: [rule] }));
    expect(out.errors).toEqual([
      expect.objectContaining({
        object: 'VirtualService default/mysql',
        path: 'spec.tcp[0].route[0].destination.host',
        file: 'mysql.yaml',
        doc: 0,
      }),
    ]);
    // The cluster name is still built from the route (route.go GetDestinationCluster, listener port).
    expect(terminal(listener(out.listeners, '10.96.0.50_3306').filterChains?.[0]).cluster).toBe(
      'outbound|3306||nope.default.svc.cluster.local',
    );
  });
});

describe('bad input', () => {
  it('a tcp route without destination host is reported as an error and the service default chain is used; nothing throws', () => {
    const rule = vs('broken', 'default', {
      hosts: ['mysqldb.default.svc.cluster.local'],
      tcp: [{ route: [{} as never] }],
      tls: [{ match: undefined as never, route: [] }],
    });
    const out = buildSidecarListeners(makeView({ services: [MYSQL], virtualServices: [rule] }));
    encodeAll(out.listeners);
    expect(out.errors).toEqual([
      expect.objectContaining({
        severity: 'error',
        object: 'VirtualService default/broken',
        path: 'spec.tcp[0].route[0].destination.host',
      }),
    ]);
    expect(terminal(listener(out.listeners, '10.96.0.50_3306').filterChains?.[0]).cluster).toBe(
      'outbound|3306||mysqldb.default.svc.cluster.local',
    );
  });
});

describe('sniffed ports (protocol Unsupported)', () => {
  it('a VIP-bound sniffed port gets a TCP default chain and an HCM chain on RDS <fqdn>:<port> (listener.go ListenerProtocolAuto)', () => {
    const legacy = svc('legacy', 'default', [[8000, 'Unsupported', 'web']], { address: '10.96.0.60' });
    const out = buildSidecarListeners(makeView({ services: [legacy] }));
    encodeAll(out.listeners);
    const l = listener(out.listeners, '10.96.0.60_8000');
    expect(l.listenerFilters?.map((f) => f.name)).toEqual(['envoy.filters.listener.http_inspector']);
    expect(l.filterChains).toHaveLength(1);
    expect(l.filterChains?.[0]?.filterChainMatch).toEqual({ applicationProtocols: ['http/1.1', 'h2c'], transportProtocol: 'raw_buffer' });
    expect(terminal(l.filterChains?.[0]).rds.routeConfigName).toBe('legacy.default.svc.cluster.local:8000');
    expect(terminal(l.filterChains?.[0]).statPrefix).toBe('outbound_10.96.0.60_8000;');
    expect(terminal(l.defaultFilterChain)).toMatchObject({ cluster: 'outbound|8000||legacy.default.svc.cluster.local' });
    expect(out.sniffedRoutes).toEqual([{ hostname: 'legacy.default.svc.cluster.local', port: 8000 }]);
    expect(out.httpRoutePorts).toEqual([]);
  });

  it('a sniffed port of a service without address binds 0.0.0.0 and uses the shared RDS "<port>"', () => {
    const se = svc('ext', 'default', [[8080, 'Unsupported', 'x']], {
      hostname: 'api.example.com',
      registry: 'External',
      resolution: 'DNS',
    });
    const out = buildSidecarListeners(makeView({ services: [se] }));
    encodeAll(out.listeners);
    expect(terminal(listener(out.listeners, '0.0.0.0_8080').filterChains?.[0]).rds.routeConfigName).toBe('8080');
    expect(out.httpRoutePorts).toEqual([8080]);
  });
});

describe('conflicts on one listener key (listener.go buildSidecarOutboundListener)', () => {
  it('HTTP + HTTP on the same port: one listener with one HCM chain (first wins, hosts go to RDS)', () => {
    const a = svc('a', 'default', [[9080, 'HTTP']], { address: '10.96.0.1' });
    const b = svc('b', 'other', [[9080, 'HTTP2']], { address: '10.96.0.2' });
    const out = buildSidecarListeners(makeView({ services: [a, b] }));
    encodeAll(out.listeners);
    expect(names(out)).toEqual(['0.0.0.0_9080']);
    expect(listener(out.listeners, '0.0.0.0_9080').filterChains).toHaveLength(1);
    expect(out.httpRoutePorts).toEqual([9080]);
  });

  it('HTTP over TCP on 0.0.0.0:port: the TCP chain becomes the default, the HCM chain matches HTTP ALPNs', () => {
    const tcp = svc('raw', 'default', [[9090, 'TCP']], { hostname: 'raw.example.com', registry: 'External', resolution: 'DNS' });
    const http = svc('web', 'default', [[9090, 'HTTP']], { address: '10.96.0.3' });
    const out = buildSidecarListeners(makeView({ services: [tcp, http] }));
    encodeAll(out.listeners);
    const l = listener(out.listeners, '0.0.0.0_9090');
    expect(terminal(l.filterChains?.[0]).rds.routeConfigName).toBe('9090');
    expect(terminal(l.defaultFilterChain)).toMatchObject({ cluster: 'outbound|9090||raw.example.com' });
  });

  it('MySQL never shares a port with another protocol (isConflictWithWellKnownPort): the HTTP service is dropped with a warning', () => {
    const db = svc('db', 'default', [[3306, 'MySQL']], { hostname: 'db.example.com', registry: 'External', resolution: 'DNS' });
    const web = svc('web', 'default', [[3306, 'HTTP']], { address: '10.96.0.3' });
    const out = buildSidecarListeners(makeView({ services: [db, web] }));
    const l = listener(out.listeners, '0.0.0.0_3306');
    expect(l.filterChains).toHaveLength(1);
    expect(terminal(l.filterChains?.[0]).cluster).toBe('outbound|3306||db.example.com');
    expect(out.errors).toEqual([expect.objectContaining({ severity: 'warning', object: 'Service default/web' })]);
  });

  it('two TCP services without address on one port: identical match-all chains conflict, the first is kept', () => {
    const a = svc('a', 'default', [[5000, 'TCP']], { hostname: 'a.example.com', registry: 'External', resolution: 'DNS' });
    const b = svc('b', 'default', [[5000, 'TCP']], { hostname: 'b.example.com', registry: 'External', resolution: 'DNS' });
    const out = buildSidecarListeners(makeView({ services: [a, b] }));
    const l = listener(out.listeners, '0.0.0.0_5000');
    expect(l.filterChains).toHaveLength(1);
    expect(terminal(l.filterChains?.[0]).cluster).toBe('outbound|5000||a.example.com');
    expect(out.errors).toHaveLength(1);
  });
});

describe('TLS ports (tls.go buildSidecarOutboundTLSFilterChainOpts)', () => {
  const api = svc('api', 'default', [[443, 'HTTPS']], { hostname: 'api.example.com', registry: 'External', resolution: 'DNS' });

  it('without a tls route on a wildcard bind: one chain matching server_names [hostname], tls_inspector added', () => {
    const out = buildSidecarListeners(makeView({ services: [api] }));
    encodeAll(out.listeners);
    const l = listener(out.listeners, '0.0.0.0_443');
    expect(l.listenerFilters?.map((f) => f.name)).toEqual(['envoy.filters.listener.tls_inspector']);
    expect(l.filterChains?.[0]?.filterChainMatch).toEqual({ serverNames: ['api.example.com'] });
    expect(terminal(l.filterChains?.[0]).cluster).toBe('outbound|443||api.example.com');
    expect(l.defaultFilterChain?.name).toBe('PassthroughFilterChain');
  });

  it('on a VIP without tls route: a single match-all chain, no SNI', () => {
    const vip = svc('secure', 'default', [[443, 'TLS']], { address: '10.96.0.70' });
    const out = buildSidecarListeners(makeView({ services: [vip] }));
    const l = listener(out.listeners, '10.96.0.70_443');
    expect(l.filterChains?.[0]?.filterChainMatch).toBeUndefined();
    expect(l.listenerFilters).toBeUndefined();
  });

  it('tls routes become one chain per distinct sniHosts, sorted server_names, duplicates skipped', () => {
    const rule = vs('api', 'default', {
      hosts: ['api.example.com'],
      tls: [
        { match: [{ sniHosts: ['b.example.com', 'api.example.com'] }], route: [{ destination: { host: 'api.example.com' } }] },
        { match: [{ sniHosts: ['b.example.com', 'api.example.com'] }], route: [{ destination: { host: 'other.example.com' } }] },
      ],
    });
    const out = buildSidecarListeners(makeView({ services: [api], virtualServices: [rule] }));
    encodeAll(out.listeners);
    const l = listener(out.listeners, '0.0.0.0_443');
    expect(l.filterChains).toHaveLength(1);
    expect(l.filterChains?.[0]?.filterChainMatch).toEqual({ serverNames: ['api.example.com', 'b.example.com'] });
    expect(terminal(l.filterChains?.[0]).cluster).toBe('outbound|443||api.example.com');
  });
});

describe('headless, alias, UDP and reserved ports', () => {
  it('a headless TCP service gets one listener per endpoint IP, skipping the proxy itself', () => {
    const db = svc('cassandra', 'default', [[9042, 'TCP']], { resolution: 'Passthrough', address: '0.0.0.0' });
    const view = makeView({
      services: [db],
      proxy: { ips: ['10.244.0.10'] },
      endpoints: {
        'cassandra.default.svc.cluster.local': [
          endpoint('10.244.0.11', 9042),
          endpoint('10.244.0.10', 9042),
          endpoint('10.244.0.12', 9042),
        ],
      },
    });
    const out = buildSidecarListeners(view);
    encodeAll(out.listeners);
    expect(names(out)).toEqual(['10.244.0.11_9042', '10.244.0.12_9042']);
    expect(terminal(listener(out.listeners, '10.244.0.11_9042').filterChains?.[0]).cluster).toBe(
      'outbound|9042||cassandra.default.svc.cluster.local',
    );
  });

  it('a headless Kubernetes service with no endpoints gets no TCP listener; its HTTP port still binds 0.0.0.0', () => {
    const db = svc(
      'h',
      'default',
      [
        [9042, 'TCP'],
        [8080, 'HTTP'],
      ],
      { resolution: 'Passthrough', address: '0.0.0.0' },
    );
    expect(names(buildSidecarListeners(makeView({ services: [db] })))).toEqual(['0.0.0.0_8080']);
  });

  it('a headless sniffed port gets per-endpoint listeners whose HCM asks for RDS <fqdn>:<port> (bind is not the wildcard)', () => {
    const h = svc('ss', 'default', [[7000, 'Unsupported', 'peer']], { resolution: 'Passthrough', address: '0.0.0.0' });
    const out = buildSidecarListeners(
      makeView({ services: [h], endpoints: { 'ss.default.svc.cluster.local': [endpoint('10.244.0.31', 7000)] } }),
    );
    encodeAll(out.listeners);
    expect(terminal(listener(out.listeners, '10.244.0.31_7000').filterChains?.[0]).rds.routeConfigName).toBe(
      'ss.default.svc.cluster.local:7000',
    );
    expect(out.sniffedRoutes).toEqual([{ hostname: 'ss.default.svc.cluster.local', port: 7000 }]);
  });

  it('a CIDR address binds 0.0.0.0 with a prefix-range match and keeps PassthroughFilterChain as default', () => {
    const net = svc('corp', 'default', [[5432, 'TCP']], {
      hostname: 'db.corp.example',
      registry: 'External',
      resolution: 'Passthrough',
      address: '192.168.0.0/16',
    });
    const out = buildSidecarListeners(makeView({ services: [net] }));
    encodeAll(out.listeners);
    const l = listener(out.listeners, '0.0.0.0_5432');
    expect(l.filterChains?.[0]?.filterChainMatch).toEqual({ prefixRanges: [{ addressPrefix: '192.168.0.0', prefixLen: 16 }] });
    expect(terminal(l.filterChains?.[0]).cluster).toBe('outbound|5432||db.corp.example');
    expect(l.defaultFilterChain?.name).toBe('PassthroughFilterChain');
  });

  it('Alias (ExternalName) services and UDP ports get nothing', () => {
    const alias = svc('alias', 'default', [[80, 'HTTP']], { resolution: 'Alias', externalName: 'x.example.com' });
    const dns = svc('dns', 'default', [[53, 'UDP']], { address: '10.96.0.10' });
    expect(names(buildSidecarListeners(makeView({ services: [alias, dns] })))).toEqual([]);
  });

  it('an HTTP port on a sidecar-reserved port (15021) gets no 0.0.0.0 listener (context.go conflictWithReservedListener)', () => {
    const s = svc('status', 'default', [[15021, 'HTTP']], { address: '10.96.0.9' });
    const out = buildSidecarListeners(makeView({ services: [s] }));
    expect(names(out)).toEqual([]);
    expect(out.errors).toHaveLength(1);
  });
});
