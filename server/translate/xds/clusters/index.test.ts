import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import type { DestinationRuleSpec } from '../../../model/istio';
import { DEFAULT_OPTIONS, type ServiceModel } from '../../../model/mesh';
import { buildSnapshot, endpoint, external, istio, pod, port, service, type SnapshotInput } from '../../testing/meshBuilder';
import type { ClusterJson } from '../../types';
import { buildProxyView } from '../../view/buildProxyView';
import { buildClusters } from './index';

const client = pod('productpage-1', 'default', '10.0.0.9', { labels: { app: 'productpage' } });
const reviewsPods = ['v1', 'v2', 'v3'].map((v, i) =>
  pod(`reviews-${v}-x`, 'default', `10.0.0.${i + 1}`, { labels: { app: 'reviews', version: v } }),
);

function clustersFor(input: SnapshotInput, proxyId = 'productpage-1.default') {
  const snap = buildSnapshot({ pods: [client, ...reviewsPods], ...input, ...(input.pods ? { pods: input.pods } : {}) });
  const proxy = snap.proxiesById.get(proxyId);
  if (!proxy) throw new Error(`no proxy ${proxyId}`);
  const out = buildClusters(buildProxyView(snap, proxy, DEFAULT_OPTIONS));
  // every produced cluster must be a valid envoy.config.cluster.v3.Cluster
  for (const c of out.clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
  return out;
}
const byName = (cs: ClusterJson[], name: string) => {
  const c = cs.find((x) => x.name === name);
  if (!c) throw new Error(`no cluster ${name} in ${cs.map((x) => x.name).join(', ')}`);
  return c;
};
const istioMeta = (c: ClusterJson) => (c.metadata?.filterMetadata as Record<string, Record<string, unknown>> | undefined)?.['istio'];
const R = 'reviews.default.svc.cluster.local';
const drFor = (spec: Omit<DestinationRuleSpec, 'host'>, host = 'reviews') =>
  istio('DestinationRule', 'reviews', 'default', { host, ...spec });
const subsets = ['v1', 'v2', 'v3'].map((v) => ({ name: v, labels: { version: v } }));

describe('sidecar CDS names and order (cluster.go:buildClusters, buildOutboundClusters)', () => {
  it('Bookinfo reviews with v1/v2/v3 subsets: default cluster then one per subset, then the fixed and inbound clusters', () => {
    const { clusters, errors } = clustersFor({
      services: [service('reviews'), service('productpage', 'default', { ports: [port(9080, 'http'), port(53, 'udp-dns', 'UDP')] })],
      configs: [drFor({ subsets })],
    });
    expect(errors).toEqual([]);
    expect(clusters.map((c) => c.name)).toEqual([
      `outbound|9080||${R}`,
      `outbound|9080|v1|${R}`,
      `outbound|9080|v2|${R}`,
      `outbound|9080|v3|${R}`,
      'outbound|9080||productpage.default.svc.cluster.local', // UDP port 53: no cluster
      'BlackHoleCluster',
      'PassthroughCluster',
      'inbound|9080||',
      'inbound|53||', // service targets keep UDP ports (GetProxyServiceTargetsByPod), inbound clusters do not filter them
      'InboundPassthroughCluster',
    ]);
  });

  it('an EDS cluster fetches itself over ADS and carries Istio defaults and telemetry/provenance metadata', () => {
    const { clusters } = clustersFor({ services: [service('reviews')], configs: [drFor({ subsets })] });
    const v2 = byName(clusters, `outbound|9080|v2|${R}`);
    expect(v2).toMatchObject({
      type: 'EDS',
      edsClusterConfig: {
        edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
        serviceName: `outbound|9080|v2|${R}`,
      },
      connectTimeout: '10s', // MeshConfig.connectTimeout
      lbPolicy: 'LEAST_REQUEST', // defaultLBAlgorithm
      circuitBreakers: {
        thresholds: [
          {
            maxConnections: 4294967295,
            maxPendingRequests: 4294967295,
            maxRequests: 4294967295,
            maxRetries: 4294967295,
            trackRemaining: true,
          },
        ],
      },
      commonLbConfig: {},
      altStatName: `outbound|9080|v2|${R};`, // util.DelimitedStatsPrefix
    });
    expect(istioMeta(v2)).toEqual({
      services: [{ host: R, name: 'reviews', namespace: 'default' }],
      default_original_port: 9080,
      config: '/apis/networking.istio.io/v1/namespaces/default/destination-rule/reviews',
      subset: 'v2',
    });
    expect(istioMeta(byName(clusters, `outbound|9080||${R}`))?.['subset']).toBeUndefined();
  });

  it('subset clusters exist on every port of the service; short DR hosts resolve in the DR namespace', () => {
    const { clusters } = clustersFor({
      services: [service('reviews', 'default', { ports: [port(9080, 'http'), port(9443, 'https', 'HTTPS')] })],
      configs: [drFor({ subsets: [{ name: 'v1', labels: { version: 'v1' } }] })],
    });
    expect(clusters.map((c) => c.name).filter((n) => n?.includes('reviews'))).toEqual([
      `outbound|9080||${R}`,
      `outbound|9080|v1|${R}`,
      `outbound|9443||${R}`,
      `outbound|9443|v1|${R}`,
    ]);
  });

  it('a gateway gets outbound clusters and BlackHoleCluster only (no passthrough, no inbound)', () => {
    const gw = pod('ingress-1', 'istio-system', '10.0.9.9', { labels: { istio: 'ingressgateway', app: 'gw' }, proxy: 'router' });
    const { clusters } = clustersFor(
      { services: [service('reviews'), service('gw', 'istio-system', { ports: [port(80, 'http2')] })], pods: [gw] },
      'ingress-1.istio-system',
    );
    expect(clusters.map((c) => c.name)).toEqual([
      `outbound|9080||${R}`,
      'outbound|80||gw.istio-system.svc.cluster.local',
      'BlackHoleCluster',
    ]);
  });

  it('a custom Sidecar adds the services its imported VirtualServices route to (collectImportedServices)', () => {
    const { clusters } = clustersFor({
      services: [service('reviews'), service('ratings', 'other')],
      configs: [
        istio('Sidecar', 'default', 'default', { egress: [{ hosts: ['./*'] }] }),
        istio('VirtualService', 'r', 'default', {
          hosts: ['reviews'],
          http: [{ route: [{ destination: { host: 'ratings.other.svc.cluster.local' } }] }],
        }),
      ],
    });
    expect(clusters.map((c) => c.name)).toContain('outbound|9080||ratings.other.svc.cluster.local');
  });
});

describe('cluster types (cluster.go:convertResolution, cluster_builder.go:buildCluster)', () => {
  const dnsSe = (resolution: ServiceModel['resolution']) =>
    external('api.example.com', 'default', { resolution, ports: [port(443, 'tls', 'TLS')] });
  const seEndpoints = new Map([['default/api.example.com', new Map([[443, [endpoint('api.example.com', 443, 443)]]])]]);

  it.each([
    ['DNS', 'STRICT_DNS'],
    ['DNSRoundRobin', 'LOGICAL_DNS'],
  ] as const)('a %s ServiceEntry is %s with its endpoints inline and DNS settings', (resolution, type) => {
    const { clusters } = clustersFor({ services: [dnsSe(resolution)], endpoints: seEndpoints });
    const c = byName(clusters, 'outbound|443||api.example.com');
    expect(c).toMatchObject({
      type,
      dnsLookupFamily: 'V4_ONLY',
      dnsRefreshRate: '60s',
      respectDnsTtl: true,
      loadAssignment: {
        clusterName: 'outbound|443||api.example.com',
        endpoints: [
          {
            lbEndpoints: [{ endpoint: { address: { socketAddress: { address: 'api.example.com', portValue: 443 } } } }],
            loadBalancingWeight: 1,
          },
        ],
      },
    });
    expect(c.edsClusterConfig).toBeUndefined();
    expect(istioMeta(c)?.['external']).toBe(true);
  });

  it('a LOGICAL_DNS cluster keeps a single endpoint (Envoy allows one) and the extra ones are reported', () => {
    const eps = new Map([
      ['default/api.example.com', new Map([[443, [endpoint('a.example.com', 443, 443), endpoint('b.example.com', 443, 443)]]])],
    ]);
    const { clusters, errors } = clustersFor({ services: [dnsSe('DNSRoundRobin')], endpoints: eps });
    const c = byName(clusters, 'outbound|443||api.example.com');
    expect(c.loadAssignment?.endpoints?.flatMap((l) => l.lbEndpoints?.map((e) => e.endpoint?.address?.socketAddress?.address))).toEqual([
      'a.example.com',
    ]);
    expect(errors).toMatchObject([{ severity: 'warning', object: 'ServiceEntry default/api.example.com', path: 'spec.endpoints' }]);
  });

  it('a DNS cluster without endpoints is not generated', () => {
    const { clusters } = clustersFor({ services: [dnsSe('DNS')] });
    expect(clusters.map((c) => c.name)).not.toContain('outbound|443||api.example.com');
  });

  it('DNS subset clusters carry only the endpoints with the subset labels', () => {
    const eps = new Map([
      [
        'default/api.example.com',
        new Map([
          [443, [endpoint('a.example.com', 443, 443, { labels: { v: 'a' } }), endpoint('b.example.com', 443, 443, { labels: { v: 'b' } })]],
        ]),
      ],
    ]);
    const { clusters } = clustersFor({
      services: [dnsSe('DNS')],
      endpoints: eps,
      configs: [istio('DestinationRule', 'api', 'default', { host: 'api.example.com', subsets: [{ name: 'b', labels: { v: 'b' } }] })],
    });
    const sub = byName(clusters, 'outbound|443|b|api.example.com');
    expect(sub.loadAssignment?.endpoints?.[0]?.lbEndpoints?.map((e) => e.endpoint?.address?.socketAddress?.address)).toEqual([
      'b.example.com',
    ]);
  });

  it('a headless service is ORIGINAL_DST / CLUSTER_PROVIDED on sidecars, dialing a differing numeric targetPort', () => {
    const headless = service('db', 'default', { resolution: 'Passthrough', ports: [port(5432, 'tcp-pg', 'TCP', 15432), port(80, 'http')] });
    const { clusters } = clustersFor({ services: [headless] });
    expect(byName(clusters, 'outbound|5432||db.default.svc.cluster.local')).toMatchObject({
      type: 'ORIGINAL_DST',
      lbPolicy: 'CLUSTER_PROVIDED',
      originalDstLbConfig: { upstreamPortOverride: 15432 },
    });
    const c80 = byName(clusters, 'outbound|80||db.default.svc.cluster.local');
    expect(c80.originalDstLbConfig).toBeUndefined();
    expect(c80.edsClusterConfig).toBeUndefined();
  });

  it('a headless service is EDS on gateways', () => {
    const gw = pod('ingress-1', 'istio-system', '10.0.9.9', { labels: { istio: 'ingressgateway' }, proxy: 'router' });
    const { clusters } = clustersFor(
      { services: [service('db', 'default', { resolution: 'Passthrough' })], pods: [gw] },
      'ingress-1.istio-system',
    );
    expect(byName(clusters, 'outbound|9080||db.default.svc.cluster.local').type).toBe('EDS');
  });

  it('ExternalName (Alias) services get no cluster', () => {
    const { clusters } = clustersFor({ services: [service('ext', 'default', { resolution: 'Alias', selector: null })] });
    expect(clusters.some((c) => c.name?.includes('ext.default'))).toBe(false);
  });

  it('fixed clusters: BlackHole STATIC, Passthrough ORIGINAL_DST with default breakers, InboundPassthrough bound from 127.0.0.6', () => {
    const { clusters } = clustersFor({ services: [] });
    expect(byName(clusters, 'BlackHoleCluster')).toEqual({
      name: 'BlackHoleCluster',
      type: 'STATIC',
      connectTimeout: '10s',
      lbPolicy: 'ROUND_ROBIN',
      altStatName: 'BlackHoleCluster;',
    });
    expect(byName(clusters, 'PassthroughCluster')).toMatchObject({
      type: 'ORIGINAL_DST',
      lbPolicy: 'CLUSTER_PROVIDED',
      altStatName: 'PassthroughCluster;',
    });
    expect(byName(clusters, 'PassthroughCluster').circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(4294967295);
    expect(byName(clusters, 'InboundPassthroughCluster')).toMatchObject({
      type: 'ORIGINAL_DST',
      lbPolicy: 'CLUSTER_PROVIDED',
      upstreamBindConfig: { sourceAddress: { address: '127.0.0.6', portValue: 0 } },
      altStatName: 'PassthroughCluster;', // copied from the passthrough cluster it is built from
    });
  });
});

describe('inbound clusters (cluster_builder.go:buildInboundCluster, default inboundTrafficPolicy PASSTHROUGH)', () => {
  it('one ORIGINAL_DST cluster per distinct target port, cleanup disabled, bound from 127.0.0.6, services on that port', () => {
    const p = pod('reviews-v1-x', 'default', '10.0.0.1', { labels: { app: 'reviews', version: 'v1' } });
    const { clusters } = clustersFor(
      {
        services: [
          service('reviews', 'default', { ports: [port(9080, 'http', 'HTTP', 8080), port(9090, 'grpc', 'GRPC', 8080)] }),
          service('reviews-alias', 'default', { selector: { app: 'reviews' }, ports: [port(9080, 'http', 'HTTP', 8080)] }),
        ],
        pods: [p],
      },
      'reviews-v1-x.default',
    );
    const inbound = clusters.filter((c) => c.name?.startsWith('inbound|'));
    expect(inbound.map((c) => c.name)).toEqual(['inbound|8080||']);
    expect(inbound[0]).toMatchObject({
      type: 'ORIGINAL_DST',
      lbPolicy: 'CLUSTER_PROVIDED',
      cleanupInterval: '9223372035s',
      upstreamBindConfig: { sourceAddress: { address: '127.0.0.6', portValue: 0 } },
      connectTimeout: '10s',
    });
    // addTelemetryMetadata: every service whose port equals the primary target's service port (9080)
    expect(istioMeta(inbound[0]!)?.['services']).toEqual([
      { host: R, name: 'reviews', namespace: 'default' },
      { host: 'reviews-alias.default.svc.cluster.local', name: 'reviews-alias', namespace: 'default' },
    ]);
  });

  it('a DestinationRule connection pool applies to the inbound cluster; Sidecar inboundConnectionPool overrides it', () => {
    const p = pod('reviews-v1-x', 'default', '10.0.0.1', { labels: { app: 'reviews', version: 'v1' } });
    const dr = drFor({ trafficPolicy: { connectionPool: { tcp: { maxConnections: 7 } } } });
    const withDr = clustersFor({ services: [service('reviews')], pods: [p], configs: [dr] }, 'reviews-v1-x.default').clusters;
    const c = byName(withDr, 'inbound|9080||');
    expect(c.circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(7);
    expect(istioMeta(c)?.['config']).toBe('/apis/networking.istio.io/v1/namespaces/default/destination-rule/reviews');
    const sc = istio('Sidecar', 'sc', 'default', { inboundConnectionPool: { tcp: { maxConnections: 3 } } });
    const withSc = clustersFor({ services: [service('reviews')], pods: [p], configs: [dr, sc] }, 'reviews-v1-x.default').clusters;
    expect(byName(withSc, 'inbound|9080||').circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(3);
  });

  it('workloadSelector rules do not apply to inbound clusters, only the selector-less rule does', () => {
    const p = pod('reviews-v1-x', 'default', '10.0.0.1', { labels: { app: 'reviews', version: 'v1' } });
    const plain = drFor({ trafficPolicy: { connectionPool: { tcp: { maxConnections: 7 } } } });
    const sel = istio('DestinationRule', 'sel', 'default', {
      host: 'reviews',
      workloadSelector: { matchLabels: { app: 'reviews' } },
      trafficPolicy: { connectionPool: { tcp: { maxConnections: 9 } } },
    });
    const cs = clustersFor({ services: [service('reviews')], pods: [p], configs: [plain, sel] }, 'reviews-v1-x.default').clusters;
    expect(byName(cs, 'inbound|9080||').circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(7);
    expect(byName(cs, `outbound|9080||${R}`).circuitBreakers?.thresholds?.[0]?.maxConnections).toBe(9);
  });

  it('Sidecar ingress defaultEndpoint 127.0.0.1:P makes a STATIC cluster to localhost without a bind config', () => {
    const p = pod('reviews-v1-x', 'default', '10.0.0.1', { labels: { app: 'reviews' } });
    const sc = istio('Sidecar', 'sc', 'default', {
      ingress: [{ port: { number: 9080, protocol: 'HTTP', name: 'http' }, defaultEndpoint: '127.0.0.1:8080' }],
    });
    const { clusters } = clustersFor({ services: [service('reviews')], pods: [p], configs: [sc] }, 'reviews-v1-x.default');
    const c = byName(clusters, 'inbound|9080||');
    expect(c).toMatchObject({
      type: 'STATIC',
      loadAssignment: {
        clusterName: 'inbound|9080||',
        endpoints: [{ lbEndpoints: [{ endpoint: { address: { socketAddress: { address: '127.0.0.1', portValue: 8080 } } } }] }],
      },
    });
    expect(c.upstreamBindConfig).toBeUndefined();
  });
});
