// Rows from real inputs: meshscope's translation of Istio's Bookinfo (productpage under
// virtual-service-reviews-jason-v2-v3.yaml / -80-20.yaml) and the real Envoy dumps in ../shared.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '@/server/model/mesh';
import { buildSnapshot } from '@/server/model/snapshot';
import { configDumpFor } from '@/server/pipeline/configDump';
import { loadPaths } from '@/server/sources/file/loadPaths';
import { bookinfo, configDumpFixture } from '@/server/testing/paths';
import { circuitBreakers, clusterRows, outlierDetection, rowsFromDump } from './rows';

function productpageDump(vs: string) {
  const r = loadPaths([
    bookinfo('platform', 'bookinfo.yaml'),
    bookinfo('networking', 'destination-rule-all.yaml'),
    bookinfo('networking', vs),
  ]);
  const snap = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
  const pp = snap.proxies.find((p) => p.labels['app'] === 'productpage')!;
  return configDumpFor(snap, pp.id, { options: DEFAULT_OPTIONS })!.dump;
}

describe('rows from meshscope dumps (Bookinfo)', () => {
  it('jason VS: reviews vhost has the header route to v2, then the default to v3, both from VirtualService default/reviews', () => {
    const rows = rowsFromDump(productpageDump('virtual-service-reviews-jason-v2-v3.yaml'));
    const reviews = rows.routes.filter((r) => r.routeConfig === '9080' && r.vhost === 'reviews.default.svc.cluster.local:9080');
    expect(reviews.map((r) => [r.match, r.clusters.map((c) => c.name), r.ordinal])).toEqual([
      ['/* with end-user=jason', ['outbound|9080|v2|reviews.default.svc.cluster.local'], 0],
      ['/*', ['outbound|9080|v3|reviews.default.svc.cluster.local'], 1],
    ]);
    for (const r of reviews) {
      expect(r.source).toBe('/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews');
      expect(r.sourceLabel).toBe('VirtualService default/reviews');
    }
    expect(new Set(rows.routes.map((r) => r.key)).size).toBe(rows.routes.length);
  });

  it('80-20 VS: weighted clusters with their share of the total weight (Envoy WeightedCluster)', () => {
    const rows = rowsFromDump(productpageDump('virtual-service-reviews-80-20.yaml'));
    const r = rows.routes.find((x) => x.vhost === 'reviews.default.svc.cluster.local:9080')!;
    expect(r.clusters.map((c) => [c.name, c.percent])).toEqual([
      ['outbound|9080|v1|reviews.default.svc.cluster.local', 80],
      ['outbound|9080|v2|reviews.default.svc.cluster.local', 20],
    ]);
  });

  it('clusters: fqdn, port, subset, direction and the DestinationRule from provenance', () => {
    const rows = rowsFromDump(productpageDump('virtual-service-reviews-jason-v2-v3.yaml'));
    const v2 = rows.clusters.find((c) => c.name === 'outbound|9080|v2|reviews.default.svc.cluster.local')!;
    expect(v2).toMatchObject({
      fqdn: 'reviews.default.svc.cluster.local',
      port: 9080,
      subset: 'v2',
      direction: 'outbound',
      type: 'EDS',
      destinationRule: 'default/reviews',
    });
    const bh = rows.clusters.find((c) => c.name === 'BlackHoleCluster')!;
    expect(bh).toMatchObject({ fqdn: 'BlackHoleCluster', subset: '', direction: '', destinationRule: '' });
    expect(new Set(rows.clusters.map((c) => c.key)).size).toBe(rows.clusters.length);
    // one endpoint row per lb endpoint; every endpoint row names a cluster of this proxy
    const names = new Set(rows.clusters.map((c) => c.name));
    expect(rows.endpoints.length).toBeGreaterThan(0);
    for (const e of rows.endpoints) expect(names.has(e.cluster)).toBe(true);
  });
});

describe('rows from real Envoy dumps', () => {
  const load = (n: string) => rowsFromDump(JSON.parse(readFileSync(configDumpFixture(n), 'utf8')));
  it('sidecar: three listeners (one row per filter chain), the inbound-vip route config', () => {
    const rows = load('sidecar-config_dump.json');
    expect(new Set(rows.listeners.map((l) => l.listener))).toEqual(new Set(['connect_terminate', 'main_internal', 'connect_originate']));
    expect(rows.routes.some((r) => r.routeConfig.startsWith('inbound-vip|9080|http|reviews-v3') && r.match === '/*')).toBe(true);
    expect(rows.errors).toEqual([]);
  });
  it('gateway routes: http.8080 vhost httpbin.example.com:80 prefix /get', () => {
    const rows = load('gateway-routes-config_dump.json');
    const r = rows.routes.find((x) => x.routeConfig === 'http.8080' && x.vhost === 'httpbin.example.com:80')!;
    expect(r.match).toBe('/get*');
    expect(r.clusters.map((c) => c.name)).toEqual(['outbound|8000||httpbin.default.svc.cluster.local']);
  });
  it('waypoint: route configs inlined in main_internal HCMs are listed beside RDS ones', () => {
    const rows = load('waypoint-config_dump.json');
    const inline = rows.routes.filter((r) => r.routeConfig.startsWith('main_internal/(inline) inbound-vip|8000|http|'));
    expect(inline.length).toBeGreaterThan(0);
    expect(rows.routes.some((r) => r.routeConfig === '0.0.0.0:15021/(inline)' && r.match === '/healthz/ready*')).toBe(true);
    expect(new Set(rows.routes.map((r) => r.key)).size).toBe(rows.routes.length);
  });
  it('endpoints: 10.244.0.192:9080 is listed with its health', () => {
    const rows = load('endpoints-config_dump.json');
    const e = rows.endpoints.find((x) => x.address === '10.244.0.192:9080');
    expect(e?.health).toBeTruthy();
  });
});

describe('cluster policy summaries (Envoy cluster.proto CircuitBreakers.Thresholds, OutlierDetection)', () => {
  it('DEFAULT priority thresholds and outlier detection in brief', () => {
    const c = {
      name: 'outbound|9080||reviews.default.svc.cluster.local',
      type: 'EDS',
      circuit_breakers: {
        thresholds: [
          { priority: 'HIGH', max_connections: 1 },
          { max_connections: 100, max_pending_requests: 10, max_requests: 1024, max_retries: 3 },
        ],
      },
      outlier_detection: { consecutive_5xx: 5, interval: '10s', base_ejection_time: '30s', max_ejection_percent: 10 },
    };
    expect(circuitBreakers(c)).toBe('conn 100 · pending 10 · req 1024 · retries 3');
    expect(outlierDetection(c)).toBe('5xx×5 · every 10s · eject 30s · max 10%');
    expect(outlierDetection({ outlier_detection: {} })).toBe('');
    // Istio's defaults are 2^32-1 everywhere (no limit)
    const max = 4294967295;
    expect(
      circuitBreakers({
        circuit_breakers: { thresholds: [{ max_connections: max, max_pending_requests: max, max_requests: max, max_retries: max }] },
      }),
    ).toBe('unlimited');
    expect(circuitBreakers({ circuit_breakers: { thresholds: [{ max_connections: 10, max_requests: max }] } })).toBe('conn 10 · req ∞');
    expect(clusterRows([{ name: 'x' }])[0]).toMatchObject({ type: 'STATIC', lb: 'ROUND_ROBIN', circuitBreakers: '', outlierDetection: '' });
  });
});
