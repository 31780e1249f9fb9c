import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../../envoy/encode';
import { TYPE } from '../../../../envoy/typeUrls';
import type { DestinationRuleSpec, LoadBalancerSettings, TrafficPolicy } from '../../../../model/istio';
import { DEFAULT_OPTIONS } from '../../../../model/mesh';
import { buildSnapshot, istio, pod, port, service } from '../../../testing/meshBuilder';
import type { ClusterJson } from '../../../types';
import { buildProxyView } from '../../../view/buildProxyView';
import { buildClusters } from '../index';
import { normalizeDurationText } from '../../../../lib/duration';

const R = 'reviews.default.svc.cluster.local';

function build(spec: Omit<DestinationRuleSpec, 'host'>, ports = [port(9080, 'http')]) {
  const snap = buildSnapshot({
    services: [service('reviews', 'default', { ports })],
    pods: [pod('client-1', 'default', '10.0.0.9', { labels: { app: 'client' } })],
    configs: [istio('DestinationRule', 'reviews', 'default', { host: R, ...spec }, { doc: 3 })],
  });
  const out = buildClusters(buildProxyView(snap, snap.proxies[0]!, DEFAULT_OPTIONS));
  for (const c of out.clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
  const get = (name: string): ClusterJson => out.clusters.find((c) => c.name === name)!;
  return { ...out, get, main: get(`outbound|9080||${R}`) };
}
const lb = (loadBalancer: LoadBalancerSettings) => build({ trafficPolicy: { loadBalancer } }).main;

describe('load balancer (cluster_traffic_policy.go:applyLoadBalancer, ApplyRingHashLoadBalancer)', () => {
  it.each([
    ['ROUND_ROBIN', 'ROUND_ROBIN'],
    ['RANDOM', 'RANDOM'],
    ['LEAST_CONN', 'LEAST_REQUEST'],
    ['LEAST_REQUEST', 'LEAST_REQUEST'],
    ['UNSPECIFIED', 'LEAST_REQUEST'],
  ] as const)('simple %s → lb_policy %s', (simple, want) => {
    expect(lb({ simple }).lbPolicy).toBe(want);
  });

  it('simple PASSTHROUGH → ORIGINAL_DST with CLUSTER_PROVIDED and no EDS config', () => {
    const c = lb({ simple: 'PASSTHROUGH' });
    expect(c.type).toBe('ORIGINAL_DST');
    expect(c.lbPolicy).toBe('CLUSTER_PROVIDED');
    expect(c.edsClusterConfig).toBeUndefined();
  });

  it('consistentHash: ringHash → RING_HASH with its minimum size; maglev → MAGLEV with table size; bare → RING_HASH 1024', () => {
    expect(lb({ consistentHash: { httpHeaderName: 'x-user', ringHash: { minimumRingSize: 2048 } } })).toMatchObject({
      lbPolicy: 'RING_HASH',
      ringHashLbConfig: { minimumRingSize: '2048' },
    });
    expect(lb({ consistentHash: { useSourceIp: true, maglev: { tableSize: 65537 } } })).toMatchObject({
      lbPolicy: 'MAGLEV',
      maglevLbConfig: { tableSize: '65537' },
    });
    expect(lb({ consistentHash: { httpCookie: { name: 'c', ttl: '0s' } } })).toMatchObject({
      lbPolicy: 'RING_HASH',
      ringHashLbConfig: { minimumRingSize: '1024' },
    });
    expect(lb({ consistentHash: { httpHeaderName: 'x', minimumRingSize: 64 } }).ringHashLbConfig).toEqual({ minimumRingSize: '64' });
  });

  it('warmup → slow_start_config (aggression default 1 with runtime key "(", min weight 10%)', () => {
    expect(lb({ simple: 'ROUND_ROBIN', warmup: { duration: '30s' } }).roundRobinLbConfig).toEqual({
      slowStartConfig: { slowStartWindow: '30s', aggression: { defaultValue: 1, runtimeKey: '(' }, minWeightPercent: { value: 10 } },
    });
    expect(lb({ warmupDurationSecs: '1m' }).leastRequestLbConfig).toEqual({ slowStartConfig: { slowStartWindow: '60s' } });
  });

  it('locality distribute turns on locality_weighted_lb_config; failover only with outlier detection', () => {
    const distribute = lb({ localityLbSetting: { distribute: [{ from: 'r/z/*', to: { 'r/z/*': 100 } }] } });
    expect(distribute.commonLbConfig).toEqual({ localityWeightedLbConfig: {} });
    const failoverOnly = lb({ localityLbSetting: { failover: [{ from: 'a', to: 'b' }] } });
    expect(failoverOnly.commonLbConfig).toEqual({});
    const withOutlier = build({
      trafficPolicy: {
        loadBalancer: { localityLbSetting: { failover: [{ from: 'a', to: 'b' }] } },
        outlierDetection: { consecutive5xxErrors: 1 },
      },
    }).main;
    expect(withOutlier.commonLbConfig).toEqual({ healthyPanicThreshold: { value: 0 }, localityWeightedLbConfig: {} });
  });
});

describe('connection pool (cluster_traffic_policy.go:applyConnectionPool)', () => {
  it('maps limits onto the default thresholds and connectTimeout/keepalive onto the cluster', () => {
    const c = build({
      trafficPolicy: {
        connectionPool: {
          tcp: { maxConnections: 100, connectTimeout: '30ms', tcpKeepalive: { probes: 3, time: '7200s', interval: '75s' } },
          http: { http1MaxPendingRequests: 10, http2MaxRequests: 1000, maxRetries: 3, maxRequestsPerConnection: 10 },
        },
      },
    }).main;
    expect(c.connectTimeout).toBe('0.030s');
    expect(c.circuitBreakers).toEqual({
      thresholds: [{ maxConnections: 100, maxPendingRequests: 10, maxRequests: 1000, maxRetries: 3, trackRemaining: true }],
    });
    expect(c.upstreamConnectionOptions).toEqual({ tcpKeepalive: { keepaliveProbes: 3, keepaliveTime: 7200, keepaliveInterval: 75 } });
  });

  it('zero limits keep the defaults (Istio cannot tell zero from unset)', () => {
    const c = build({ trafficPolicy: { connectionPool: { tcp: { maxConnections: 0 } } } }).main;
    expect(c.circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(4294967295);
  });
});

describe('outlier detection (cluster_traffic_policy.go:applyOutlierDetection)', () => {
  it('maps errors with 100% enforcement, disables success-rate ejection and sets the panic threshold', () => {
    const c = build({
      trafficPolicy: {
        outlierDetection: {
          consecutive5xxErrors: 5,
          consecutiveGatewayErrors: 0,
          interval: '10s',
          baseEjectionTime: '3m',
          maxEjectionPercent: 50,
          minHealthPercent: 20,
          splitExternalLocalOriginErrors: true,
          consecutiveLocalOriginFailures: 2,
        },
      },
    }).main;
    expect(c.outlierDetection).toEqual({
      enforcingSuccessRate: 0,
      consecutive5xx: 5,
      enforcingConsecutive5xx: 100,
      consecutiveGatewayFailure: 0,
      enforcingConsecutiveGatewayFailure: 0,
      interval: '10s',
      baseEjectionTime: '180s',
      maxEjectionPercent: 50,
      splitExternalLocalOriginErrors: true,
      consecutiveLocalOriginFailure: 2,
      enforcingConsecutiveLocalOriginFailure: 100,
      enforcingLocalOriginSuccessRate: 0,
    });
    expect(c.commonLbConfig?.healthyPanicThreshold).toEqual({ value: 20 });
  });
});

describe('policy precedence (networking/util: GetPortLevelTrafficPolicy, MergeSubsetTrafficPolicy)', () => {
  const policy: TrafficPolicy = {
    loadBalancer: { simple: 'RANDOM' },
    connectionPool: { tcp: { maxConnections: 10 } },
    portLevelSettings: [{ port: { number: 9443 }, loadBalancer: { simple: 'ROUND_ROBIN' } }],
  };
  it('port-level settings override the destination-level component for that port only', () => {
    const out = build({ trafficPolicy: policy }, [port(9080, 'http'), port(9443, 'https', 'HTTPS')]);
    expect(out.main.lbPolicy).toBe('RANDOM');
    const p9443 = out.get(`outbound|9443||${R}`);
    expect(p9443.lbPolicy).toBe('ROUND_ROBIN');
    expect(p9443.circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(10); // not overridden: inherited
  });

  it('a subset policy overrides component by component; PASSTHROUGH subsets become ORIGINAL_DST', () => {
    const out = build({
      trafficPolicy: policy,
      subsets: [
        { name: 'v1', labels: { version: 'v1' }, trafficPolicy: { loadBalancer: { simple: 'LEAST_REQUEST' } } },
        { name: 'v2', labels: { version: 'v2' } },
        { name: 'raw', trafficPolicy: { loadBalancer: { simple: 'PASSTHROUGH' } } },
      ],
    });
    const v1 = out.get(`outbound|9080|v1|${R}`);
    expect(v1.lbPolicy).toBe('LEAST_REQUEST');
    expect(v1.circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(10);
    expect(out.get(`outbound|9080|v2|${R}`).lbPolicy).toBe('RANDOM');
    const raw = out.get(`outbound|9080|raw|${R}`);
    expect(raw).toMatchObject({ type: 'ORIGINAL_DST', lbPolicy: 'CLUSTER_PROVIDED' });
    expect(raw.edsClusterConfig).toBeUndefined();
  });

  it('a top-level PASSTHROUGH makes subset clusters ORIGINAL_DST even when a subset sets another algorithm (buildSubsetCluster)', () => {
    const out = build({
      trafficPolicy: { loadBalancer: { simple: 'PASSTHROUGH' } },
      subsets: [{ name: 'v1', labels: { version: 'v1' }, trafficPolicy: { loadBalancer: { simple: 'ROUND_ROBIN' } } }],
    });
    expect(out.get(`outbound|9080|v1|${R}`)).toMatchObject({ type: 'ORIGINAL_DST', lbPolicy: 'CLUSTER_PROVIDED' });
  });

  it('user TLS (SIMPLE/MUTUAL) marks alpn_override "false" in the istio metadata', () => {
    const { main } = build({ trafficPolicy: { tls: { mode: 'SIMPLE' } } });
    expect((main.metadata?.filterMetadata as Record<string, Record<string, unknown>>)['istio']?.['alpn_override']).toBe('false');
  });
});

describe('bad input is reported, never thrown', () => {
  it('an invalid duration yields a located LoadError and the cluster keeps the mesh default', () => {
    const out = build({ subsets: [{ name: 'v1', trafficPolicy: { connectionPool: { tcp: { connectTimeout: 'soon' } } } }] });
    expect(out.get(`outbound|9080|v1|${R}`).connectTimeout).toBe('10s');
    expect(out.errors).toEqual([
      {
        severity: 'error',
        message: 'invalid duration "soon"',
        object: 'DestinationRule default/reviews',
        path: 'spec.subsets[0].trafficPolicy.connectionPool.tcp.connectTimeout',
        file: 'test.yaml',
        doc: 3,
      },
    ]);
  });
});

describe('malformed rules do not throw', () => {
  it('wrong types and missing hosts still give encodable clusters and located errors', () => {
    const bad = {
      connectionPool: { tcp: { connectTimeout: 10 as unknown as string, maxConnections: -5 } },
      outlierDetection: { interval: {} as unknown as string },
    };
    const snap = buildSnapshot({
      services: [service('reviews')],
      pods: [pod('client-1', 'default', '10.0.0.9')],
      configs: [
        istio('DestinationRule', 'nohost', 'default', {} as DestinationRuleSpec),
        istio('DestinationRule', 'reviews', 'default', { host: 'reviews', trafficPolicy: bad }),
        istio('VirtualService', 'nohosts', 'default', { http: [{ route: [{ destination: { host: 'reviews' } }] }] }),
      ],
    });
    const out = buildClusters(buildProxyView(snap, snap.proxies[0]!, DEFAULT_OPTIONS));
    for (const c of out.clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
    const main = out.clusters.find((c) => c.name === `outbound|9080||${R}`)!;
    expect(main.connectTimeout).toBe('10s');
    expect(main.circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(4294967295);
    expect(out.errors.map((e) => e.path)).toEqual([
      'spec.trafficPolicy.connectionPool.tcp.connectTimeout',
      'spec.trafficPolicy.outlierDetection.interval',
    ]);
  });
});

describe('durations (Go time.ParseDuration syntax → protobuf JSON)', () => {
  it.each([
    ['10s', '10s'],
    ['30ms', '0.030s'],
    ['1m30s', '90s'],
    ['1.5s', '1.500s'],
    ['1h', '3600s'],
    ['250us', '0.000250s'],
    ['0', '0s'],
  ])('%s → %s', (inp, want) => expect(normalizeDurationText(inp)).toBe(want));
  it.each(['', 'soon', '10', '5 s', '-1s'])('rejects %j', (inp) => expect(normalizeDurationText(inp)).toBeUndefined());
});
