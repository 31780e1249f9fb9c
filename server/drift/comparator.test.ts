// Istio's own comparator pair (istioctl/pkg/writer/compare/testdata/configdump.json and configdump_diff.json,
// in ../shared as sidecar-config_dump.json / sidecar-config_dump_diff.json). istioctl's comparator
// (comparator.go Diff → ClusterDiff, ListenerDiff, RouteDiff) marshals the dynamic active clusters, the active
// listeners and the dynamic route configs of each side, sorted by name, versions and last_updated stripped
// (istioctl/pkg/util/configdump GetDynamic{Cluster,Listener,Route}Dump), and text-diffs them;
// comparator_test.go expects "Clusters Match", "Listeners Match", "Routes Match" for a self-compare and
// "… Don't Match" for all three on this pair. The per-resource differences below were read from the two
// files (a line diff of the pretty-printed JSON has exactly these hunks):
// - cluster `inbound-vip|9080|http|ratings…` renamed to `inbound-vip|9999|http|ratings…` (and its
//   eds_cluster_config dropped): one cluster only in each side;
// - listener `connect_terminate`: the HCM's `use_remote_address: false` (a set BoolValue) removed;
// - listener `main_internal`: a filter chain's HCM `stat_prefix` inbound_0.0.0.0_9080 → inbound_0.0.0.0_9999;
// - route config `inbound-vip|9080|http|reviews-v3…` renamed to `…|9999|…` (and a `max_stream_duration: 0s`
//   dropped inside it): one route config only in each side.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDumpFixture } from '../testing/paths';
import { computeDrift, DriftInputError } from './index';

const dump = (f: string): unknown => JSON.parse(readFileSync(configDumpFixture(f), 'utf8'));

describe("drift on Istio's comparator pair", () => {
  const a = dump('sidecar-config_dump.json');
  const b = dump('sidecar-config_dump_diff.json');

  it('gives the resource-level differences istioctl counts, and nothing else', () => {
    const d = computeDrift(a, b);
    expect(d.inSync).toBe(false);
    expect(d.resources.map(({ type, name, change, class: c, paths }) => ({ type, name, change, class: c, paths }))).toEqual([
      {
        type: 'listeners',
        name: 'connect_terminate',
        change: 'changed',
        class: undefined,
        paths: ['filter_chains[default].filters[envoy.filters.network.http_connection_manager].typed_config.use_remote_address'],
      },
      {
        type: 'listeners',
        name: 'main_internal',
        change: 'changed',
        class: undefined,
        paths: [
          'filter_chains[inbound-vip|9080||details.default.svc.cluster.local-http].filters[envoy.filters.network.http_connection_manager].typed_config.stat_prefix',
        ],
      },
      {
        type: 'routes',
        name: 'inbound-vip|9080|http|reviews-v3.default.svc.cluster.local',
        change: 'onlyInMeshscope',
        class: undefined,
        paths: undefined,
      },
      {
        type: 'routes',
        name: 'inbound-vip|9999|http|reviews-v3.default.svc.cluster.local',
        change: 'onlyInEnvoy',
        class: undefined,
        paths: undefined,
      },
      {
        type: 'clusters',
        name: 'inbound-vip|9080|http|ratings.default.svc.cluster.local',
        change: 'onlyInMeshscope',
        class: undefined,
        paths: undefined,
      },
      {
        type: 'clusters',
        name: 'inbound-vip|9999|http|ratings.default.svc.cluster.local',
        change: 'onlyInEnvoy',
        class: undefined,
        paths: undefined,
      },
    ]);
    // istioctl: "Clusters Don't Match", "Listeners Don't Match", "Routes Don't Match".
    for (const t of ['clusters', 'listeners', 'routes'] as const) expect(d.resources.some((r) => r.type === t)).toBe(true);
    expect(d.counts.listeners).toEqual({ same: 1, changed: 2, onlyInEnvoy: 0, onlyInMeshscope: 0 });
    expect(d.counts.routes).toEqual({ same: 0, changed: 0, onlyInEnvoy: 1, onlyInMeshscope: 1 });
    expect(d.counts.clusters).toEqual({ same: 0, changed: 0, onlyInEnvoy: 1, onlyInMeshscope: 1 });
    // Neither dump carries EDS: endpoints are not compared.
    expect(d.counts.endpoints).toEqual({ same: 0, changed: 0, onlyInEnvoy: 0, onlyInMeshscope: 0 });
    expect(d.nacked).toEqual([]);
    // The changed listener carries both sides, canonical: the set BoolValue on the expected side only.
    const ct = d.resources[0]!;
    expect(JSON.stringify(ct.meshscope)).toContain('"use_remote_address":false');
    expect(JSON.stringify(ct.envoy)).not.toContain('use_remote_address');
  });

  it('the reverse direction swaps onlyInEnvoy and onlyInMeshscope', () => {
    const d = computeDrift(b, a);
    expect(d.resources.filter((r) => r.change === 'onlyInEnvoy').map((r) => r.name)).toEqual([
      'inbound-vip|9080|http|reviews-v3.default.svc.cluster.local',
      'inbound-vip|9080|http|ratings.default.svc.cluster.local',
    ]);
  });

  it.each([
    'sidecar-config_dump.json',
    'sidecar-config_dump_diff.json',
    'waypoint-config_dump.json',
    'endpoints-config_dump.json',
    'gateway-routes-config_dump.json',
  ])('a self-compare of %s is in sync (comparator_test.go TestComparatorMatchingSameConfigs)', (f) => {
    const d = computeDrift(dump(f), dump(f));
    expect(d.inSync).toBe(true);
    expect(d.resources).toEqual([]);
  });

  it('static entries are counted apart, not compared (waypoint dump: 5 static clusters + static listeners / routes)', () => {
    const w = dump('waypoint-config_dump.json') as { configs: Record<string, unknown[]>[] };
    const count = (sec: string, key: string) => (w.configs.find((c) => String(c['@type']).endsWith(`.${sec}`))?.[key] ?? []).length;
    const expected =
      count('ClustersConfigDump', 'static_clusters') +
      count('ListenersConfigDump', 'static_listeners') +
      count('RoutesConfigDump', 'static_route_configs') +
      count('EndpointsConfigDump', 'static_endpoint_configs');
    expect(expected).toBeGreaterThan(0);
    expect(computeDrift(w, w).ignored).toEqual({ static: expected, warming: 0, draining: 0 });
  });

  it('an unreadable dump is a located input error, not a result', () => {
    expect(() => computeDrift(a, '{')).toThrow(DriftInputError);
    expect(() => computeDrift({ nope: 1 }, a)).toThrow(/^expected: config dump has no "configs" array$/);
  });
});
