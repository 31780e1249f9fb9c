// Issue 21 acceptance, offline half: a dump built from meshscope's own translation plus the noise a real Envoy
// dump has is in sync; injected drift is reported exactly, nothing else. The noise is what Envoy's admin
// /config_dump adds or varies (envoy admin v3 config_dump.proto: version_info / last_updated per entry,
// static_* and bootstrap sections, draining_state / warming_state beside active_state; EDS printed from its
// internal state with overprovisioning_factor 140 (Envoy's default, envoy endpoint.proto
// ClusterLoadAssignment.Policy), empty health_check_config and load_balancing_weight 1), plus spellings
// protojson accepts for the same message (`10.000s`) and resource / virtual-host order (istioctl sorts both
// before comparing, istioctl/pkg/util/configdump/route.go GetDynamicRouteDump).
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../cli/load';
import { configDumpFor } from '../pipeline/configDump';
import { bookinfo } from '../testing/paths';
import { computeDrift } from './index';

type J = Record<string, any>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const section = (d: J, t: string): J => d.configs.find((c: J) => String(c['@type']).endsWith(`.${t}`));
const REVIEWS_V3 = 'outbound|9080|v3|reviews.default.svc.cluster.local';
const EXTRA = 'outbound|9999||extra.default.svc.cluster.local';

async function expectedDump(): Promise<J> {
  const m = await loadMesh([
    bookinfo('platform', 'bookinfo.yaml'),
    bookinfo('networking', 'destination-rule-all.yaml'),
    bookinfo('networking', 'virtual-service-reviews-80-20.yaml'),
  ]);
  const id = m.snapshot.proxies.find((p) => p.id.startsWith('productpage-v1'))!.id;
  return configDumpFor(m.snapshot, id)!.dump as J;
}

/** Every `Ns` Duration string spelled `N.000s`. */
function longDurations(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(longDurations);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, longDurations(x)]));
  return typeof v === 'string' && /^\d+s$/.test(v) ? `${v.slice(0, -1)}.000s` : v;
}

/** What a real Envoy's dump of the same config looks like (no semantic change). */
function withNoise(expected: J): J {
  const d = longDurations(clone(expected)) as J;
  const stamp = { version_info: '2026-11-27T12:00:00Z/42', last_updated: '2026-11-27T12:00:01.123Z' };
  const cl = section(d, 'ClustersConfigDump');
  cl.version_info = 'v42';
  cl.dynamic_active_clusters = cl.dynamic_active_clusters.map((e: J) => ({ ...e, ...stamp })).reverse();
  cl.static_clusters = [
    { cluster: { '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster', name: 'xds-grpc', type: 'STATIC' }, ...stamp },
  ];
  cl.dynamic_warming_clusters = [
    { cluster: { '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster', name: 'outbound|1|x|warming' }, ...stamp },
  ];
  const ls = section(d, 'ListenersConfigDump');
  ls.dynamic_listeners = ls.dynamic_listeners.map((e: J) => ({ ...e, active_state: { ...e.active_state, ...stamp } })).reverse();
  // A listener being replaced: its previous version drains beside the active one.
  ls.dynamic_listeners[0].draining_state = clone(ls.dynamic_listeners[0].active_state);
  ls.static_listeners = [
    { listener: { '@type': 'type.googleapis.com/envoy.config.listener.v3.Listener', name: '0.0.0.0_15090' }, ...stamp },
  ];
  const rs = section(d, 'RoutesConfigDump');
  rs.dynamic_route_configs = rs.dynamic_route_configs.map((e: J) => {
    const rc = e.route_config;
    rc.virtual_hosts.reverse();
    rc.most_specific_header_mutations_wins ??= false; // a bool scalar at its default
    return { ...e, ...stamp };
  });
  const ep = section(d, 'EndpointsConfigDump');
  ep.dynamic_endpoint_configs = ep.dynamic_endpoint_configs
    .map((e: J) => {
      const cla = e.endpoint_config;
      cla.policy = { overprovisioning_factor: 140 };
      for (const l of cla.endpoints ?? []) {
        l.locality ??= {};
        for (const lb of l.lb_endpoints ?? []) {
          lb.endpoint.health_check_config = {};
          lb.load_balancing_weight ??= 1;
        }
        l.lb_endpoints?.reverse();
      }
      return { ...e, ...stamp };
    })
    .reverse();
  ep.static_endpoint_configs = [
    { endpoint_config: { '@type': 'type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment', cluster_name: 'xds-grpc' } },
  ];
  d.configs.unshift({
    '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump',
    bootstrap: {
      node: { id: 'sidecar~10.0.0.1~productpage.default~default.svc.cluster.local' },
      static_resources: { clusters: [{ name: 'xds-grpc' }] },
    },
    last_updated: stamp.last_updated,
  });
  return d;
}

describe("drift: meshscope's translation against an Envoy dump of it", async () => {
  const expected = await expectedDump();

  it('the translation plus real-dump noise is in sync', () => {
    const d = computeDrift(expected, withNoise(expected));
    expect(d.resources).toEqual([]);
    expect(d.nacked).toEqual([]);
    expect(d.inSync).toBe(true);
    // 3 static (cluster, listener, endpoints), 1 warming cluster, 1 draining listener.
    expect(d.ignored).toEqual({ static: 3, warming: 1, draining: 1 });
    expect(d.counts.clusters.same).toBe(section(expected, 'ClustersConfigDump').dynamic_active_clusters.length);
    expect(d.counts.endpoints.same).toBe(section(expected, 'EndpointsConfigDump').dynamic_endpoint_configs.length);
  });

  it('telemetry Istio adds and meshscope does not model (stats filter, access log, tracing) is listed as unmodelled, still in sync', () => {
    const actual = withNoise(expected);
    const l = section(actual, 'ListenersConfigDump').dynamic_listeners.find(
      (e: J) => e.name === 'virtualInbound' || e.name === '0.0.0.0_15006',
    );
    expect(l).toBeDefined();
    const hcmChain = l.active_state.listener.filter_chains.find((fc: J) =>
      fc.filters?.some((f: J) => f.name === 'envoy.filters.network.http_connection_manager'),
    );
    const hcm = hcmChain.filters.find((f: J) => f.name === 'envoy.filters.network.http_connection_manager').typed_config;
    // A telemetry filter the translation does not emit (since Istio's default chain is generated, istio.stats
    // is compared like any other filter: see the next test): the Wasm stats filter of older Istio releases.
    hcm.http_filters.splice(0, 0, {
      name: 'envoy.wasm.stats',
      typed_config: {
        '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
        type_url: 'type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm',
        value: {},
      },
    });
    hcm.access_log = [
      {
        name: 'envoy.access_loggers.file',
        typed_config: { '@type': 'type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog', path: '/dev/stdout' },
      },
    ];
    hcm.tracing = { client_sampling: { value: 100 } };
    const d = computeDrift(expected, actual);
    expect(d.inSync).toBe(true);
    expect(d.resources.map(({ type, name, change, class: c }) => ({ type, name, change, class: c }))).toEqual([
      { type: 'listeners', name: l.name, change: 'changed', class: 'unmodelled' },
    ]);
    expect(d.counts.listeners.changed).toBe(0);
    // A real difference in the same listener is drift again.
    hcm.stat_prefix = 'other';
    expect(computeDrift(expected, actual).inSync).toBe(false);
  });

  it('a telemetry filter that translation does emit is compared like any other (the unmodelled list follows what meshscope generates)', () => {
    const stats = (reporter: string) => ({
      name: 'istio.stats',
      typed_config: {
        '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
        type_url: 'type.googleapis.com/stats.PluginConfig',
        value: { reporter },
      },
    });
    const withStats = (d: J, reporter: string): J => {
      const l = section(d, 'ListenersConfigDump').dynamic_listeners.find(
        (e: J) => e.name === 'virtualInbound' || e.name === '0.0.0.0_15006',
      );
      const fc = l.active_state.listener.filter_chains.find((c: J) =>
        c.filters?.some((f: J) => f.name === 'envoy.filters.network.http_connection_manager'),
      );
      fc.filters
        .find((f: J) => f.name === 'envoy.filters.network.http_connection_manager')
        .typed_config.http_filters.unshift(stats(reporter));
      return d;
    };
    const exp = withStats(clone(expected), 'SERVER');
    expect(computeDrift(exp, withStats(withNoise(expected), 'SERVER')).inSync).toBe(true);
    const d = computeDrift(exp, withStats(withNoise(expected), 'SERVER_GATEWAY'));
    expect(d.inSync).toBe(false);
    expect(d.resources).toHaveLength(1);
    expect(d.resources[0]).toMatchObject({ type: 'listeners', change: 'changed' });
    expect(d.resources[0]!.class).toBeUndefined();
    expect(d.resources[0]!.paths![0]).toMatch(/http_filters\[istio\.stats\]\.typed_config\.value\.reporter$/);
  });

  it('injected drift (a weight change, a missing and an extra cluster, a changed timeout, a rejected listener) is reported exactly', () => {
    const actual = withNoise(expected);
    // 1. reviews 80/20 → 70/30 in route config 9080.
    const rc = section(actual, 'RoutesConfigDump').dynamic_route_configs.find((e: J) => e.route_config.name === '9080').route_config;
    const vh = rc.virtual_hosts.find((v: J) => v.name === 'reviews.default.svc.cluster.local:9080');
    vh.routes[0].route.weighted_clusters.clusters[0].weight = 70;
    vh.routes[0].route.weighted_clusters.clusters[1].weight = 30;
    // 2. reviews v3 missing (cluster and its endpoints, as Envoy drops both).
    const cl = section(actual, 'ClustersConfigDump');
    cl.dynamic_active_clusters = cl.dynamic_active_clusters.filter((e: J) => e.cluster.name !== REVIEWS_V3);
    const ep = section(actual, 'EndpointsConfigDump');
    ep.dynamic_endpoint_configs = ep.dynamic_endpoint_configs.filter((e: J) => e.endpoint_config.cluster_name !== REVIEWS_V3);
    // 3. an extra EDS cluster meshscope does not generate (no assignment received yet).
    cl.dynamic_active_clusters.push({
      cluster: {
        '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster',
        name: EXTRA,
        type: 'EDS',
        eds_cluster_config: { eds_config: { ads: {} } },
      },
    });
    // 4. details' connect timeout 10s → 5s.
    const details = cl.dynamic_active_clusters.find(
      (e: J) => e.cluster.name === 'outbound|9080||details.default.svc.cluster.local',
    ).cluster;
    details.connect_timeout = '5s';
    // 5. a rejected update of a listener whose active state still matches.
    const lst = section(actual, 'ListenersConfigDump').dynamic_listeners[1];
    lst.error_state = {
      failed_configuration: { '@type': 'type.googleapis.com/envoy.config.listener.v3.Listener', name: lst.name },
      last_update_attempt: '2026-11-27T12:00:02Z',
      details: 'Error adding/updating listener(s) x: duplicate filter chain match',
    };

    const d = computeDrift(expected, actual);
    expect(d.inSync).toBe(false);
    expect(d.resources.map(({ type, name, change, paths }) => ({ type, name, change, paths }))).toEqual([
      {
        type: 'routes',
        name: '9080',
        change: 'changed',
        paths: [
          'virtual_hosts[reviews.default.svc.cluster.local:9080].routes[0].route.weighted_clusters.clusters[outbound|9080|v1|reviews.default.svc.cluster.local].weight',
          'virtual_hosts[reviews.default.svc.cluster.local:9080].routes[0].route.weighted_clusters.clusters[outbound|9080|v2|reviews.default.svc.cluster.local].weight',
        ],
      },
      // Names in byte order ('v' < '|').
      { type: 'clusters', name: REVIEWS_V3, change: 'onlyInMeshscope', paths: undefined },
      { type: 'clusters', name: 'outbound|9080||details.default.svc.cluster.local', change: 'changed', paths: ['connect_timeout'] },
      { type: 'clusters', name: EXTRA, change: 'onlyInEnvoy', paths: undefined },
      { type: 'endpoints', name: REVIEWS_V3, change: 'onlyInMeshscope', paths: undefined },
      // Added by the rule "a removed or added cluster also shows as an endpoints entry when the dump has EDS".
      { type: 'endpoints', name: EXTRA, change: 'onlyInEnvoy', paths: undefined },
    ]);
    expect(d.routes).toHaveLength(1);
    expect(d.routes[0]).toMatchObject({
      change: 'changed',
      routeConfig: '9080',
      virtualHost: 'reviews.default.svc.cluster.local:9080',
      detail: 'weights v1 80/v2 20 → v1 70/v2 30',
      weights: {
        before: { 'outbound|9080|v1|reviews.default.svc.cluster.local': 80, 'outbound|9080|v2|reviews.default.svc.cluster.local': 20 },
        after: { 'outbound|9080|v1|reviews.default.svc.cluster.local': 70, 'outbound|9080|v2|reviews.default.svc.cluster.local': 30 },
      },
    });
    expect(d.nacked).toEqual([
      { type: 'listeners', name: lst.name, details: 'Error adding/updating listener(s) x: duplicate filter chain match' },
    ]);
    expect(d.counts.listeners).toEqual({ same: 3, changed: 0, onlyInEnvoy: 0, onlyInMeshscope: 0 });
    expect(d.counts.endpoints.onlyInEnvoy).toBe(1);
    // The changed cluster's sides are canonical: 10s on meshscope's, 5s on Envoy's.
    const det = d.resources[2]!;
    expect((det.meshscope as J).connect_timeout).toBe('10s');
    expect((det.envoy as J).connect_timeout).toBe('5s');
  });
});
