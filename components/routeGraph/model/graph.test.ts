// Building, filtering and tracing the route graph on a hand-built sidecar config: listener 0.0.0.0_9080 →
// RDS "9080" → vhost reviews:9080 → [header route → v2, default route → 80/20 v1/v3] + a catch-all vhost, and
// a TCP listener → cluster. Shares are weight / sum of weights (Envoy WeightedClusterEntry); EDS clusters
// take endpoints from the ClusterLoadAssignment named by eds_cluster_config.service_name, else the cluster name.
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import type { SimResult } from '@/server/simulate/types';
import { buildRouteGraph, nodeIds } from './build';
import { toElements } from './elements';
import { filterChoices, filterGraph, suggestFilter } from './filter';
import { traceFilter, tracePath } from './trace';

const VS = { filter_metadata: { istio: { config: '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews' } } };
const DR = { filter_metadata: { istio: { config: '/apis/networking.istio.io/v1/namespaces/default/destination-rule/reviews' } } };
const hcm = (rds: string) => ({
  name: 'envoy.filters.network.http_connection_manager',
  typed_config: {
    '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
    rds: { route_config_name: rds },
  },
});
const tcp = (cluster: string) => ({
  name: 'envoy.filters.network.tcp_proxy',
  typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy', cluster },
});
const sock = (address: string, port_value: number) => ({ socket_address: { address, port_value } });
const cla = (name: string, ips: string[]) => ({
  cluster_name: name,
  endpoints: [{ locality: { region: 'r1', zone: 'z1' }, lb_endpoints: ips.map((ip) => ({ endpoint: { address: sock(ip, 9080) } })) }],
});
const eds = (name: string) => ({ name, type: 'EDS', eds_cluster_config: { service_name: name }, metadata: DR });

const v1 = 'outbound|9080|v1|reviews.default.svc.cluster.local';
const v2 = 'outbound|9080|v2|reviews.default.svc.cluster.local';
const v3 = 'outbound|9080|v3|reviews.default.svc.cluster.local';

function config(): EnvoyConfig {
  return {
    listeners: [
      {
        name: '0.0.0.0_9080',
        address: sock('0.0.0.0', 9080),
        filter_chains: [{ filters: [hcm('9080')] }],
        default_filter_chain: { name: 'PassthroughFilterChain', filters: [tcp('PassthroughCluster')] },
      },
      { name: '10.0.0.1_443', address: sock('10.0.0.1', 443), filter_chains: [{ filters: [tcp('outbound|443||api.example.com')] }] },
      { name: '0.0.0.0_80', address: sock('0.0.0.0', 80), filter_chains: [{ filters: [hcm('80')] }] },
    ],
    routes: [
      {
        name: '9080',
        virtual_hosts: [
          {
            name: 'reviews.default.svc.cluster.local:9080',
            domains: ['reviews.default.svc.cluster.local', 'reviews'],
            routes: [
              {
                match: { prefix: '/', headers: [{ name: 'end-user', string_match: { exact: 'jason' } }] },
                route: { cluster: v2 },
                metadata: VS,
              },
              {
                match: { prefix: '/' },
                route: {
                  weighted_clusters: {
                    clusters: [
                      { name: v1, weight: 80 },
                      { name: v3, weight: 20 },
                    ],
                  },
                },
                metadata: VS,
              },
              { match: { path: '/health' }, route: { cluster: v1 } },
            ],
          },
          {
            name: 'allow_any',
            domains: ['*'],
            routes: [{ name: 'allow_any', match: { prefix: '/' }, route: { cluster: 'PassthroughCluster' } }],
          },
        ],
      },
      {
        virtual_hosts: [
          { name: 'backend', domains: ['*'], routes: [{ match: { prefix: '/stats' }, route: { cluster: 'prometheus_stats' } }] },
        ],
      },
    ],
    clusters: [
      eds(v1),
      eds(v2),
      eds(v3),
      { name: 'PassthroughCluster', type: 'ORIGINAL_DST' },
      { name: 'outbound|443||api.example.com', type: 'STRICT_DNS', load_assignment: cla('x', ['1.2.3.4']) },
    ],
    endpoints: [cla(v1, ['10.1.0.1']), cla(v2, ['10.1.0.2']), cla(v3, ['10.1.0.3', '10.1.0.4', '10.1.0.5'])],
  };
}

const vhId = nodeIds.virtualHost(nodeIds.routeConfig('9080'), 0);
const routeId = (i: number) => nodeIds.route(vhId, i);

describe('buildRouteGraph', () => {
  const g = buildRouteGraph(config());
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  const edge = (s: string, t: string) => g.edges.find((e) => e.source === s && e.target === t);

  it('listener → RDS route config → virtual hosts → routes in order', () => {
    expect(edge(nodeIds.listener('0.0.0.0_9080'), nodeIds.routeConfig('9080'))?.kind).toBe('rds');
    expect(g.edges.filter((e) => e.source === vhId).map((e) => e.target)).toEqual([routeId(0), routeId(1), routeId(2)]);
    expect(node(routeId(0))?.label).toBe('#0 prefix /, header end-user exact "jason"');
  });

  it('weighted clusters: one edge each with share = weight / total, labelled with %', () => {
    expect(edge(routeId(1), nodeIds.cluster(v1))).toMatchObject({ kind: 'weighted', weight: 80, percent: 80, label: '80%' });
    expect(edge(routeId(1), nodeIds.cluster(v3))).toMatchObject({ percent: 20, label: '20%' });
    expect(edge(routeId(0), nodeIds.cluster(v2))).toMatchObject({ kind: 'route', percent: 100 });
  });

  it('clusters carry their subset and DestinationRule provenance; routes their VirtualService', () => {
    expect(node(nodeIds.cluster(v3))).toMatchObject({
      subset: 'v3',
      source: { kind: 'DestinationRule', namespace: 'default', name: 'reviews' },
    });
    expect(node(routeId(1))?.source).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews' });
  });

  it('EDS endpoints hang off their cluster; inline load_assignment for DNS clusters; ORIGINAL_DST has none', () => {
    expect(g.edges.filter((e) => e.source === nodeIds.cluster(v3)).map((e) => e.target)).toEqual([
      'ep:10.1.0.3:9080',
      'ep:10.1.0.4:9080',
      'ep:10.1.0.5:9080',
    ]);
    expect(node('ep:10.1.0.3:9080')?.detail).toBe('r1/z1');
    expect(edge(nodeIds.cluster('outbound|443||api.example.com'), 'ep:1.2.3.4:9080')).toBeDefined();
    expect(g.edges.filter((e) => e.source === nodeIds.cluster('PassthroughCluster'))).toEqual([]);
  });

  it('caps endpoints per cluster with a "+N more" node', () => {
    const small = buildRouteGraph(config(), { maxEndpointsPerCluster: 1 });
    expect(small.nodes.find((n) => n.id === `more:${v3}`)?.label).toBe('+2 more');
  });

  it('TCP proxies link listeners to clusters, the default chain included', () => {
    expect(edge(nodeIds.listener('10.0.0.1_443'), nodeIds.cluster('outbound|443||api.example.com'))?.kind).toBe('tcp');
    expect(edge(nodeIds.listener('0.0.0.0_9080'), nodeIds.cluster('PassthroughCluster'))?.label).toBe('PassthroughFilterChain');
  });

  it('a route config named by a listener but absent (RDS not received) and a cluster absent from CDS are marked missing', () => {
    expect(node(nodeIds.routeConfig('80'))).toMatchObject({ missing: true });
    expect(node(nodeIds.cluster('prometheus_stats'))).toMatchObject({ missing: true });
  });

  it('an unnamed route config with no listener is still a root', () => {
    expect(node(nodeIds.routeConfig('#1'))?.label).toBe('(unnamed #1)');
  });

  it('marks the route after the catch-all as shadowed, with the reason', () => {
    expect(node(routeId(2))?.shadowed).toEqual({ by: 1, reason: expect.stringContaining('catch-all') });
    expect(node(routeId(1))?.shadowed).toBeUndefined();
  });

  it('never throws on garbage', () => {
    const bad = {
      listeners: [null, 5, { filter_chains: 'x' }],
      routes: [{ virtual_hosts: [{ routes: [null, { route: { weighted_clusters: { clusters: [{}] } } }] }] }],
      clusters: [7],
      endpoints: [{}],
    };
    expect(() => buildRouteGraph(bad as unknown as EnvoyConfig)).not.toThrow();
  });
});

describe('filterGraph', () => {
  const g = buildRouteGraph(config());
  const ids = (f: Parameters<typeof filterGraph>[1]) => filterGraph(g, f).nodes.map((n) => n.id);

  it('a virtual host keeps its route config and listener upstream and its routes/clusters/endpoints downstream, not its siblings', () => {
    const kept = ids({ routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080' });
    expect(kept).toContain(nodeIds.listener('0.0.0.0_9080'));
    expect(kept).toContain('ep:10.1.0.5:9080');
    expect(kept).not.toContain(nodeIds.virtualHost(nodeIds.routeConfig('9080'), 1));
    expect(kept).not.toContain(nodeIds.cluster('PassthroughCluster'));
    expect(kept).not.toContain(nodeIds.listener('10.0.0.1_443'));
  });

  it('by port: listeners on it and route configs named for it', () => {
    const kept = ids({ port: 443 });
    expect(kept).toContain(nodeIds.listener('10.0.0.1_443'));
    expect(kept).not.toContain(nodeIds.routeConfig('9080'));
    expect(ids({ port: 80 })).toEqual([nodeIds.listener('0.0.0.0_80'), nodeIds.routeConfig('80')]);
  });

  it('by text (case-insensitive, provenance included)', () => {
    expect(ids({ text: 'PROMETHEUS' })).toEqual([
      nodeIds.routeConfig('#1'),
      nodeIds.virtualHost(nodeIds.routeConfig('#1'), 0),
      nodeIds.route(nodeIds.virtualHost(nodeIds.routeConfig('#1'), 0), 0),
      nodeIds.cluster('prometheus_stats'),
    ]);
  });

  it('edges only between kept nodes; the empty filter keeps all', () => {
    const f = filterGraph(g, { listener: '10.0.0.1_443' });
    const kept = new Set(f.nodes.map((n) => n.id));
    for (const e of f.edges) expect(kept.has(e.source) && kept.has(e.target)).toBe(true);
    expect(filterGraph(g, {})).toEqual(g);
  });

  it('choices narrow with the filter; large graphs get a starting filter', () => {
    const c = filterChoices(g, { routeConfig: '9080' });
    expect(c.listeners).toEqual(['0.0.0.0_9080', '10.0.0.1_443', '0.0.0.0_80']);
    expect(c.virtualHosts).toEqual(['reviews.default.svc.cluster.local:9080', 'allow_any']);
    expect(suggestFilter(g)).toEqual({});
    expect(suggestFilter(g, 10).routeConfig).toBeDefined();
  });
});

describe('tracePath', () => {
  const g = buildRouteGraph(config());
  const result: SimResult = {
    listener: '0.0.0.0_9080',
    routeConfig: '9080',
    virtualHost: 'reviews.default.svc.cluster.local:9080',
    routeIndex: 1,
    weightedClusters: { [v1]: 80, [v3]: 20 },
    endpoints: ['10.1.0.1:9080', '10.1.0.3:9080'],
    rejected: [
      { hop: 'route', name: '', index: 0, reason: 'header end-user absent' },
      { hop: 'virtualHost', name: 'allow_any', index: 1, reason: 'a more specific domain matched in another virtual host' },
    ],
  };

  it('puts listener → route config → vhost → route → both weighted clusters → endpoints on the path', () => {
    const p = tracePath(g, result);
    expect([...p.nodes]).toEqual([
      nodeIds.listener('0.0.0.0_9080'),
      nodeIds.routeConfig('9080'),
      vhId,
      routeId(1),
      nodeIds.cluster(v1),
      'ep:10.1.0.1:9080',
      nodeIds.cluster(v3),
      'ep:10.1.0.3:9080',
    ]);
    expect(p.edges.has(`${routeId(1)}->${nodeIds.cluster(v3)}`)).toBe(true);
    expect(p.rejected.get(routeId(0))).toBe('header end-user absent');
    expect(p.rejected.get(nodeIds.virtualHost(nodeIds.routeConfig('9080'), 1))).toMatch(/more specific/);
  });

  it('a TCP result goes listener → cluster; an error result puts only what was reached on the path', () => {
    const tcpPath = tracePath(g, {
      listener: '10.0.0.1_443',
      cluster: 'outbound|443||api.example.com',
      endpoints: ['1.2.3.4:9080'],
      rejected: [],
    });
    expect(tcpPath.edges.has(`${nodeIds.listener('10.0.0.1_443')}->${nodeIds.cluster('outbound|443||api.example.com')}`)).toBe(true);
    expect([...tracePath(g, { error: 'no listener matched', rejected: [] }).nodes]).toEqual([]);
  });

  it('the trace filter shows the traced virtual host; elements carry path / rejected / shadowed classes', () => {
    expect(traceFilter(result)).toEqual({ routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080' });
    const els = toElements(g, { trace: tracePath(g, result), selected: routeId(1) });
    const cls = (id: string) => els.find((e) => e.data['id'] === id)?.classes ?? '';
    expect(cls(routeId(1)).split(' ')).toEqual(['route', 'on-path', 'selected']);
    expect(cls(routeId(0))).toContain('rejected');
    expect(cls(routeId(2))).toContain('shadowed');
    const w = (id: string) => els.find((e) => e.data['id'] === id)?.data['width'] as number;
    expect(w(`${routeId(1)}->${nodeIds.cluster(v1)}`)).toBeGreaterThan(w(`${routeId(1)}->${nodeIds.cluster(v3)}`));
  });
});
