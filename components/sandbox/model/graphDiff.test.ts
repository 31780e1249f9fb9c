// The coloured route graph: the live config vs the live config with the draft's changed resources, merged.
// Envoy semantics checked: a weighted cluster's share is weight / sum of weights (route_components.proto
// WeightedCluster); routes are matched in order, so identity must not be the position.
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { applyChanges, proxyGraphDiff } from './graphDiff';

const C = (s: string) => `outbound|9080|${s}|reviews.default.svc.cluster.local`;
const rc = (routes: unknown[]) => ({
  name: '9080',
  virtual_hosts: [{ name: 'reviews.default.svc.cluster.local:9080', domains: ['reviews'], routes }],
});
const to = (cluster: string) => ({ match: { prefix: '/' }, route: { cluster } });
const split = (w: Record<string, number>) => ({
  match: { prefix: '/' },
  route: { weighted_clusters: { clusters: Object.entries(w).map(([s, weight]) => ({ name: C(s), weight })) } },
});
const live = { listeners: [], routes: [rc([to(C('v1'))])], clusters: [], endpoints: [] } as unknown as EnvoyConfig;

describe('applyChanges', () => {
  it('replaces by name, adds new ones, drops removed ones', () => {
    const after = rc([split({ v1: 50, v2: 50 })]);
    const c = applyChanges(live, [
      { type: 'routes', name: '9080', change: 'changed', before: live.routes[0], after },
      { type: 'clusters', name: C('v2'), change: 'added', after: { name: C('v2') } },
    ]);
    expect(c.routes).toEqual([after]);
    expect(c.clusters).toEqual([{ name: C('v2') }]);
    expect(applyChanges(c, [{ type: 'clusters', name: C('v2'), change: 'removed', before: { name: C('v2') } }]).clusters).toEqual([]);
    expect(live.routes[0]).not.toBe(after); // the input is not modified
  });
});

describe('proxyGraphDiff', () => {
  it('100% v1 → 50/50: the v1 edge is changed 100% → 50%, the v2 edge and cluster are added', () => {
    const d = proxyGraphDiff(live, [{ type: 'routes', name: '9080', change: 'changed', after: rc([split({ v1: 50, v2: 50 })]) }]);
    const edges = d.graph.edges
      .filter((e) => d.edges.has(e.id))
      .map((e) => [e.target.replace(/^cluster:/, ''), d.edges.get(e.id), e.label]);
    expect(edges).toContainEqual([C('v1'), 'changed', '100% → 50%']);
    expect(edges).toContainEqual([C('v2'), 'added', '50%']);
    expect(d.nodes.get(`cluster:${C('v2')}`)).toBe('added');
    expect([...d.nodes.entries()].filter(([, m]) => m === 'removed')).toEqual([]);
  });

  it('a route inserted first is one added route, not every route shifted', () => {
    const jason = {
      name: 'jason',
      match: { prefix: '/', headers: [{ name: 'end-user', string_match: { exact: 'jason' } }] },
      route: { cluster: C('v2') },
    };
    const d = proxyGraphDiff(live, [{ type: 'routes', name: '9080', change: 'changed', after: rc([jason, to(C('v1'))]) }]);
    const routeMarks = d.graph.nodes.filter((n) => n.kind === 'route').map((n) => d.nodes.get(n.id) ?? 'same');
    expect(routeMarks.sort()).toEqual(['added', 'same']);
  });

  it('a removed route config leaves its routes marked removed', () => {
    const d = proxyGraphDiff(live, [{ type: 'routes', name: '9080', change: 'removed', before: live.routes[0] }]);
    expect(
      d.graph.nodes
        .filter((n) => d.nodes.get(n.id) === 'removed')
        .map((n) => n.kind)
        .sort(),
    ).toEqual(['cluster', 'route', 'routeConfig', 'virtualHost']);
  });
});
