import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../../../model/mesh';
import { buildSnapshot, endpoint, external, istio, pod, port, service, type SnapshotInput } from '../../testing/meshBuilder';
import type { ClusterLoadAssignmentJson } from '../../types';
import { buildProxyView } from '../../view/buildProxyView';
import { buildClusters } from '../clusters/index';
import { buildEndpoints } from './index';
import { configDumpFixture } from '../../../testing/paths';

const R = 'reviews.default.svc.cluster.local';
const client = pod('productpage-1', 'default', '10.0.0.9', { labels: { app: 'productpage' } });
const reviewsPod = (v: string, ip: string, o: Parameters<typeof pod>[3] = {}) =>
  pod(`reviews-${v}-545db77b95-abcde`, 'default', ip, {
    labels: { app: 'reviews', version: v, 'security.istio.io/tlsMode': 'istio' },
    owner: { kind: 'Deployment', name: `reviews-${v}` },
    ...o,
  });

function eds(input: SnapshotInput) {
  const snap = buildSnapshot({ ...input, pods: [client, ...(input.pods ?? [])] });
  const view = buildProxyView(snap, snap.proxiesById.get('productpage-1.default')!, DEFAULT_OPTIONS);
  const { clusters } = buildClusters(view);
  const out = buildEndpoints(view, clusters);
  for (const cla of out) encodeResource(TYPE.endpoint, cla.clusterName ?? '', cla);
  const get = (name: string): ClusterLoadAssignmentJson => {
    const c = out.find((x) => x.clusterName === name);
    if (!c) throw new Error(`no CLA ${name}`);
    return c;
  };
  return { out, get };
}
const addrs = (cla: ClusterLoadAssignmentJson) =>
  (cla.endpoints ?? []).flatMap((l) =>
    (l.lbEndpoints ?? []).map((e) => `${e.endpoint?.address?.socketAddress?.address}:${e.endpoint?.address?.socketAddress?.portValue}`),
  );

describe('locality failover (loadbalancer.go:ApplyLocalityLoadBalancer, applyLocalityFailover, util.LbPriority)', () => {
  const loc = (region: string, zone: string, subzone = '') => ({ region, zone, subzone });
  const here = loc('us', 'us-a', 's1');
  const spread = new Map([
    [
      `default/${R}`,
      new Map([
        [
          9080,
          [
            endpoint('10.0.0.1', 9080, 9080, { locality: loc('us', 'us-a', 's1') }),
            endpoint('10.0.0.2', 9080, 9080, { locality: loc('us', 'us-b') }),
            endpoint('10.0.0.3', 9080, 9080, { locality: loc('eu', 'eu-a') }),
            endpoint('10.0.0.4', 9080, 9080, { locality: loc('ap', 'ap-a') }),
          ],
        ],
      ]),
    ],
  ]);
  let lastCluster: ReturnType<typeof buildClusters>['clusters'][number] | undefined;
  const run = (trafficPolicy: object | undefined, options = DEFAULT_OPTIONS) => {
    const snap = buildSnapshot({
      services: [service('reviews')],
      pods: [pod('productpage-1', 'default', '10.0.0.9', { labels: { app: 'productpage' }, locality: here })],
      endpoints: spread,
      configs: trafficPolicy ? [istio('DestinationRule', 'reviews', 'default', { host: R, trafficPolicy })] : [],
    });
    const view = buildProxyView(snap, snap.proxies[0]!, options);
    const built = buildClusters(view).clusters;
    lastCluster = built.find((c) => c.name === `outbound|9080||${R}`);
    const cla = buildEndpoints(view, built).find((c) => c.clusterName === `outbound|9080||${R}`)!;
    encodeResource(TYPE.endpoint, 'x', cla);
    return Object.fromEntries((cla.endpoints ?? []).map((l) => [l.locality?.region + '/' + l.locality?.zone, l.priority ?? 0]));
  };

  it('without outlier detection no priorities are set (failover needs outlier detection)', () => {
    expect(Object.values(run(undefined))).toEqual([0, 0, 0, 0]);
  });

  it('with outlier detection (mesh default localityLbSetting enabled): same zone 0, same region 1, other regions 2', () => {
    expect(run({ outlierDetection: { consecutive5xxErrors: 1 } })).toEqual({ 'us/us-a': 0, 'us/us-b': 1, 'eu/eu-a': 2, 'ap/ap-a': 2 });
  });

  it('a failover rule from the proxy region keeps its target region above the others (priority 4 then renumbered)', () => {
    const tp = {
      outlierDetection: { consecutive5xxErrors: 1 },
      loadBalancer: { localityLbSetting: { failover: [{ from: 'us', to: 'eu' }] } },
    };
    expect(run(tp)).toEqual({ 'us/us-a': 0, 'us/us-b': 1, 'eu/eu-a': 2, 'ap/ap-a': 3 });
  });

  it('localityLbSetting.enabled false disables failover', () => {
    const tp = { outlierDetection: { consecutive5xxErrors: 1 }, loadBalancer: { localityLbSetting: { enabled: false } } };
    expect(Object.values(run(tp))).toEqual([0, 0, 0, 0]);
  });

  // GetLocalityLbSetting(mesh, destinationRule): the rule's setting wins; without one, MeshConfig.localityLbSetting.
  const od = { outlierDetection: { consecutive5xxErrors: 1 } };
  it('MeshConfig localityLbSetting enabled false: no failover for a rule without its own setting', () => {
    expect(Object.values(run(od, { ...DEFAULT_OPTIONS, localityLbSetting: { enabled: false } }))).toEqual([0, 0, 0, 0]);
    // …but a rule's own setting re-enables it
    const tp = { ...od, loadBalancer: { localityLbSetting: { enabled: true } } };
    expect(run(tp, { ...DEFAULT_OPTIONS, localityLbSetting: { enabled: false } })).toEqual({
      'us/us-a': 0,
      'us/us-b': 1,
      'eu/eu-a': 2,
      'ap/ap-a': 2,
    });
  });

  it('MeshConfig localityLbSetting failover applies to rules without a setting, still only with outlier detection', () => {
    const mesh = { ...DEFAULT_OPTIONS, localityLbSetting: { failover: [{ from: 'us', to: 'eu' }] } };
    expect(run(od, mesh)).toEqual({ 'us/us-a': 0, 'us/us-b': 1, 'eu/eu-a': 2, 'ap/ap-a': 3 });
    // the cluster gets locality_weighted_lb_config (cluster_traffic_policy.go:applyLocalityLoadBalancer)
    expect(lastCluster?.commonLbConfig?.localityWeightedLbConfig).toEqual({});
    expect(Object.values(run(undefined, mesh))).toEqual([0, 0, 0, 0]);
    expect(lastCluster?.commonLbConfig?.localityWeightedLbConfig).toBeUndefined();
  });
});

describe('EDS (endpoint_builder.go:BuildClusterLoadAssignment)', () => {
  const pods = [reviewsPod('v1', '10.0.0.1'), reviewsPod('v2', '10.0.0.2'), reviewsPod('v3', '10.0.0.3')];
  const dr = istio('DestinationRule', 'reviews', 'default', {
    host: 'reviews',
    subsets: ['v1', 'v2', 'v3'].map((v) => ({ name: v, labels: { version: v } })),
  });

  it('one assignment per EDS cluster only (not DNS, ORIGINAL_DST, STATIC ones), endpoints at podIP:targetPort', () => {
    const { out, get } = eds({
      services: [
        service('reviews', 'default', { ports: [port(9080, 'http', 'HTTP', 8080)] }),
        service('db', 'default', { resolution: 'Passthrough' }),
      ],
      pods,
      configs: [dr],
    });
    expect(out.map((c) => c.clusterName)).toEqual([
      `outbound|9080|v1|${R}`,
      `outbound|9080|v2|${R}`,
      `outbound|9080|v3|${R}`,
      `outbound|9080||${R}`,
    ]);
    expect(addrs(get(`outbound|9080||${R}`))).toEqual(['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080']);
  });

  it('subset clusters get only the endpoints whose labels include the subset labels (version)', () => {
    const { get } = eds({ services: [service('reviews')], pods, configs: [dr] });
    expect(addrs(get(`outbound|9080|v1|${R}`))).toEqual(['10.0.0.1:9080']);
    expect(addrs(get(`outbound|9080|v2|${R}`))).toEqual(['10.0.0.2:9080']);
    expect(addrs(get(`outbound|9080|v3|${R}`))).toEqual(['10.0.0.3:9080']);
  });

  it('groups by locality (sorted labels) with load_balancing_weight = sum of endpoint weights; drops unhealthy endpoints', () => {
    const zoneB = { region: 'r1', zone: 'b', subzone: '' };
    const zoneA = { region: 'r1', zone: 'a', subzone: 's' };
    const eps = new Map([
      [
        `default/${R}`,
        new Map([
          [
            9080,
            [
              endpoint('10.0.0.1', 9080, 9080, { locality: zoneB, weight: 3 }),
              endpoint('10.0.0.2', 9080, 9080, { locality: zoneA, weight: 1 }),
              endpoint('10.0.0.3', 9080, 9080, { locality: zoneB, weight: 2 }),
              endpoint('10.0.0.4', 9080, 9080, { locality: zoneB, healthy: false }),
            ],
          ],
        ]),
      ],
    ]);
    const cla = eds({ services: [service('reviews')], endpoints: eps }).get(`outbound|9080||${R}`);
    expect(cla.endpoints?.map((l) => [l.locality, l.loadBalancingWeight, l.lbEndpoints?.map((e) => e.loadBalancingWeight)])).toEqual([
      [{ region: 'r1', zone: 'a', subZone: 's' }, 1, [1]],
      [{ region: 'r1', zone: 'b' }, 5, [3, 2]],
    ]);
    expect(cla.endpoints?.flatMap((l) => l.lbEndpoints?.map((e) => e.healthStatus))).toEqual(['HEALTHY', 'HEALTHY', 'HEALTHY']);
  });

  it('a cluster with no endpoints still gets an (empty) assignment (buildEmptyClusterLoadAssignment)', () => {
    const { get } = eds({ services: [service('reviews')] });
    expect(get(`outbound|9080||${R}`)).toEqual({ clusterName: `outbound|9080||${R}` });
  });

  it('STATIC ServiceEntries go through EDS; DNS ones do not', () => {
    const se = external('db.example.com', 'default', { resolution: 'ClientSideLB', ports: [port(5432, 'tcp', 'TCP')] });
    const dns = external('api.example.com', 'default', { resolution: 'DNS' });
    const eps = new Map([
      ['default/db.example.com', new Map([[5432, [endpoint('192.168.1.1', 5432, 5432)]]])],
      ['default/api.example.com', new Map([[443, [endpoint('api.example.com', 443, 443)]]])],
    ]);
    const { out, get } = eds({ services: [se, dns], endpoints: eps });
    expect(addrs(get('outbound|5432||db.example.com'))).toEqual(['192.168.1.1:5432']);
    expect(out.some((c) => c.clusterName?.includes('api.example.com'))).toBe(false);
  });

  it('matches the shape of the reviews assignment in a real istiod config dump (endpoints-config_dump.json)', () => {
    // Pod IPs and workloads as in the fixture; Envoy adds health_check_config {} and policy.overprovisioning_factor
    // itself when dumping, so those are removed from the expectation.
    const fixturePods = [reviewsPod('v3', '10.244.0.192'), reviewsPod('v2', '10.244.0.193'), reviewsPod('v1', '10.244.0.195')];
    const cla = eds({ services: [service('reviews')], pods: fixturePods }).get(`outbound|9080||${R}`);
    const mine = encodeResource(TYPE.endpoint, cla.clusterName ?? '', cla).json;
    const dump = JSON.parse(readFileSync(configDumpFixture('endpoints-config_dump.json'), 'utf8')) as {
      configs: { dynamic_endpoint_configs?: { endpoint_config: Record<string, unknown> }[] }[];
    };
    const real = dump.configs[0]!.dynamic_endpoint_configs!.find(
      (e) => e.endpoint_config['cluster_name'] === `outbound|9080||${R}`,
    )!.endpoint_config;
    const strip = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(strip)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .filter(([k]) => k !== 'health_check_config' && k !== 'policy' && k !== '@type')
                .map(([k, x]) => [k, strip(x)]),
            )
          : v;
    const sortEps = (j: any) => {
      for (const l of j.endpoints)
        l.lb_endpoints.sort((a: any, b: any) =>
          a.endpoint.address.socket_address.address < b.endpoint.address.socket_address.address ? -1 : 1,
        );
      return j;
    };
    expect(sortEps(strip(mine))).toEqual(sortEps(strip(real)));
  });
});

describe('serviceByHost (the service an EDS cluster is built from)', () => {
  // ServiceEntries for one host in several namespaces are several services (push_context.go ServiceIndex); a
  // proxy's cluster of that host uses its own namespace's one first, else the first in view order.
  const svc = (ns: string, host: string) => ({ ...service('x', ns), hostname: host });
  it('prefers the proxy namespace, else the first one, per host', async () => {
    const { serviceByHost } = await import('./index');
    const a1 = svc('a', 'api.example.com');
    const b1 = svc('b', 'api.example.com');
    const c1 = svc('c', 'api.example.com');
    const other = svc('a', 'db.example.com');
    const m = serviceByHost([a1, b1, other, c1], 'b');
    expect(m.get('api.example.com')).toBe(b1);
    expect(m.get('db.example.com')).toBe(other);
    expect(serviceByHost([a1, b1, c1], 'z').get('api.example.com')).toBe(a1);
    expect(serviceByHost([a1, b1, c1], 'z').get('nope')).toBeUndefined();
  });
});
