// The proxy page's tables, read from real Envoy config dumps (../shared/fixtures/envoy-config-dumps).
// Expected values are read from those files (Envoy's own output) and Envoy's documented defaults.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDumpFixture } from '../../testing/paths';
import { summarizeRouteMatch, weightedClusters } from './routes';
import { summarizeCluster, summarizeLoadAssignment } from './clusters';
import { summarizeChainMatch } from './listeners';
import { tablesFromConfigDump } from './tables';

const load = (name: string): unknown => JSON.parse(readFileSync(configDumpFixture(name), 'utf8'));

describe('tablesFromConfigDump on real Envoy dumps', () => {
  it('sidecar dump: listeners with their chains and where each sends traffic', () => {
    const t = tablesFromConfigDump(load('sidecar-config_dump.json'));
    expect(t.listeners.map((l) => l.name)).toEqual(['connect_terminate', 'main_internal', 'connect_originate']);
    const [terminate, internal, originate] = t.listeners;
    expect(terminate?.address).toBe('0.0.0.0:15008');
    // The HCM of main_internal carries its route config inline (no rds).
    expect(internal?.chains[0]?.inlineRoute).toBe('inbound-vip|9080|http|details.default.svc.cluster.local');
    expect(internal?.chains[0]?.rds).toBeUndefined();
    // connect_originate is a tcp_proxy to the cluster of the same name.
    expect(originate?.chains[0]?.clusters).toEqual(['connect_originate']);
    expect(originate?.chains[0]?.filters).toEqual(['envoy.filters.network.tcp_proxy']);
  });

  it('sidecar dump: route configs → virtual hosts → routes', () => {
    const t = tablesFromConfigDump(load('sidecar-config_dump.json'));
    expect(t.routes.map((r) => r.name)).toEqual(['inbound-vip|9080|http|reviews-v3.default.svc.cluster.local']);
    const vh = t.routes[0]?.virtualHosts[0];
    expect(vh?.name).toBe('inbound|http|9080');
    expect(vh?.domains).toEqual(['*']);
    expect(vh?.routes[0]).toMatchObject({
      name: 'default',
      match: 'prefix /',
      action: 'route',
      clusters: [{ name: 'inbound-vip|9080|http|reviews-v3.default.svc.cluster.local', weight: 100, percent: 100 }],
    });
  });

  it('sidecar dump: clusters with type, and Envoy default lb_policy ROUND_ROBIN when absent (cluster.proto)', () => {
    const t = tablesFromConfigDump(load('sidecar-config_dump.json'));
    expect(t.clusters).toEqual([
      expect.objectContaining({ name: 'inbound-vip|9080|http|ratings.default.svc.cluster.local', type: 'EDS', lb: 'ROUND_ROBIN' }),
    ]);
  });

  it('gateway dump: static and dynamic route configs, retries and Istio provenance', () => {
    const t = tablesFromConfigDump(load('gateway-routes-config_dump.json'));
    expect(t.routes).toHaveLength(3);
    const http8080 = t.routes.find((r) => r.name === 'http.8080');
    const route = http8080?.virtualHosts[0]?.routes[0];
    expect(http8080?.virtualHosts[0]?.domains).toEqual(['httpbin.example.com']);
    expect(route?.match).toBe('prefix /get');
    expect(route?.clusters).toEqual([{ name: 'outbound|8000||httpbin.default.svc.cluster.local', weight: 100, percent: 100 }]);
    expect(route?.details).toContain('retries 2 on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes');
    expect(route?.source).toBe('/apis/networking.istio.io/v1/namespaces/default/virtual-service/httpbin');
  });

  it('endpoints dump: every lb endpoint as ip:port with its health', () => {
    const t = tablesFromConfigDump(load('endpoints-config_dump.json'));
    expect(t.endpoints).toHaveLength(5 + 32); // static + dynamic endpoint configs in the file
    const reviews = t.endpoints.find((e) => e.cluster === 'outbound|9080||reviews.default.svc.cluster.local');
    expect(reviews?.endpoints.slice(0, 3).map((e) => [e.address, e.health, e.weight])).toEqual([
      ['10.244.0.192:9080', 'HEALTHY', 1],
      ['10.244.0.193:9080', 'HEALTHY', 1],
      ['10.244.0.195:9080', 'HEALTHY', 1],
    ]);
  });

  it('reads nothing, without throwing, from input that is not a config dump', () => {
    for (const bad of [null, 42, 'x', { configs: 'no' }, { configs: [null, { '@type': 7 }] }])
      expect(tablesFromConfigDump(bad)).toEqual({ listeners: [], routes: [], clusters: [], endpoints: [] });
  });
});

describe('row summaries', () => {
  it('weighted clusters: share = weight / sum of weights (Envoy route.proto WeightedCluster)', () => {
    expect(
      weightedClusters({
        weighted_clusters: {
          clusters: [
            { name: 'a', weight: 80 },
            { name: 'b', weight: 20 },
          ],
        },
      }),
    ).toEqual([
      { name: 'a', weight: 80, percent: 80 },
      { name: 'b', weight: 20, percent: 20 },
    ]);
    expect(
      weightedClusters({
        weighted_clusters: {
          clusters: [
            { name: 'a', weight: 1 },
            { name: 'b', weight: 2 },
          ],
        },
      }).map((c) => c.percent),
    ).toEqual([33.33, 66.67]);
  });

  it('route match: path specifier plus header and query matchers', () => {
    expect(
      summarizeRouteMatch({
        prefix: '/',
        headers: [
          { name: 'end-user', string_match: { exact: 'jason' } },
          { name: 'x-canary', present_match: true, invert_match: true },
        ],
        query_parameters: [{ name: 'debug', string_match: { prefix: '1' } }],
      }),
    ).toBe('prefix /, header end-user exact "jason", not header x-canary present, query debug prefix "1"');
    expect(summarizeRouteMatch({ safe_regex: { regex: '/api/.*' } })).toBe('regex /api/.*');
  });

  it('filter chain match: empty matches everything', () => {
    expect(summarizeChainMatch(undefined)).toBe('*');
    expect(
      summarizeChainMatch({ destination_port: 9080, transport_protocol: 'tls', application_protocols: ['istio-peer-exchange', 'istio'] }),
    ).toBe('port 9080, transport tls, alpn istio-peer-exchange,istio');
  });

  it('cluster names are parsed Istio-style (model.BuildSubsetKey)', () => {
    expect(
      summarizeCluster({ name: 'outbound|9080|v1|reviews.default.svc.cluster.local', type: 'EDS', lb_policy: 'LEAST_REQUEST' }),
    ).toMatchObject({
      direction: 'outbound',
      port: 9080,
      subset: 'v1',
      host: 'reviews.default.svc.cluster.local',
      lb: 'LEAST_REQUEST',
    });
    // Envoy's default cluster type is STATIC (cluster.proto DiscoveryType).
    expect(summarizeCluster({ name: 'BlackHoleCluster' }).type).toBe('STATIC');
  });

  it('endpoints: locality as region/zone/subzone, absent health is UNKNOWN (Envoy health_check.proto)', () => {
    expect(
      summarizeLoadAssignment({
        cluster_name: 'c',
        endpoints: [
          {
            locality: { region: 'r', zone: 'z' },
            lb_endpoints: [{ endpoint: { address: { socket_address: { address: '10.0.0.1', port_value: 80 } } } }],
          },
        ],
      }),
    ).toEqual({ cluster: 'c', endpoints: [{ address: '10.0.0.1:80', locality: 'r/z', health: 'UNKNOWN', priority: 0 }] });
  });
});
