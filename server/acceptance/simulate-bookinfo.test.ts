// Simulation table on Istio's Bookinfo (../shared/fixtures, loaded as they are) with destination-rule-all.yaml
// and virtual-service-reviews-jason-v2-v3.yaml: request from the productpage sidecar → listener / route config /
// vhost / route / cluster. Expectations derived from Istio's rules ("§n" = istio-translation.md section n):
// - HTTP service ports (name `http`) → one wildcard listener 0.0.0.0_9080 with RDS "9080" (§3, §4);
// - vhost per service `<fqdn>:9080` with domains fqdn, `fqdn.`, `<n>`, `<n>.default.svc`, `<n>.default`, VIP (§4);
// - services without VirtualService get the generated route `default` → outbound|9080||<fqdn> (§5);
// - unknown hosts fall to `allow_any` → PassthroughCluster (§4 buildCatchAllVirtualHost);
// - inbound: virtualInbound chain for the target port → inbound|9080|| (§8).
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { proxyResources } from '../pipeline/proxyResources';
import { simulate, type EnvoyConfig, type SimRequest, type SimResult } from '../simulate/index';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';

const { inputs, errors } = loadPaths([
  bookinfo('platform', 'bookinfo.yaml'),
  bookinfo('networking', 'destination-rule-all.yaml'),
  bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml'),
]);
const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });
const proxyOf = (app: string, version?: string) =>
  snap.proxies.find((p) => p.labels['app'] === app && (version === undefined || p.labels['version'] === version));
const ipOf = (app: string, version?: string) => proxyOf(app, version)?.ips[0] ?? 'missing';
const vipOf = (name: string) => snap.services.find((s) => s.name === name)?.address ?? 'missing';
const fq = (n: string) => `${n}.default.svc.cluster.local`;

function configOf(app: string, version?: string): EnvoyConfig {
  const p = proxyOf(app, version);
  if (!p) throw new Error(`no proxy ${app}`);
  const r = proxyResources(snap, p.id)!;
  return {
    listeners: r.listeners.map((e) => e.json),
    routes: r.routes.map((e) => e.json),
    clusters: r.clusters.map((e) => e.json),
    endpoints: r.endpoints.map((e) => e.json),
  };
}

const out = (host: string, path = '/'): SimRequest => ({ mode: 'outbound', address: '10.96.99.99', port: 9080, host, path });

describe('Bookinfo from the productpage sidecar', () => {
  const cfg = configOf('productpage');
  const rows: [string, SimRequest, Partial<SimResult>][] = [
    [
      'details:9080 → vhost details, generated route "default" → outbound|9080||details',
      out('details:9080', '/details/0'),
      {
        listener: '0.0.0.0_9080',
        routeConfig: '9080',
        virtualHost: `${fq('details')}:9080`,
        route: 'default',
        cluster: `outbound|9080||${fq('details')}`,
        endpoints: [`${ipOf('details')}:9080`],
      },
    ],
    [
      'reviews with end-user: jason → http[0] → subset v2 (VirtualService default/reviews)',
      { ...out('reviews:9080', '/reviews/0'), headers: { 'end-user': 'jason' } },
      {
        virtualHost: `${fq('reviews')}:9080`,
        routeIndex: 0,
        cluster: `outbound|9080|v2|${fq('reviews')}`,
        endpoints: [`${ipOf('reviews', 'v2')}:9080`],
        source: { kind: 'VirtualService', namespace: 'default', name: 'reviews' },
      },
    ],
    [
      'reviews with another end-user → http[1] → subset v3 (header exact match fails)',
      { ...out('reviews:9080', '/reviews/0'), headers: { 'end-user': 'mary' } },
      { virtualHost: `${fq('reviews')}:9080`, routeIndex: 1, cluster: `outbound|9080|v3|${fq('reviews')}` },
    ],
    [
      'reviews.default (a same-namespace short domain, §4) → the reviews vhost',
      out('reviews.default'),
      { virtualHost: `${fq('reviews')}:9080`, cluster: `outbound|9080|v3|${fq('reviews')}` },
    ],
    [
      'the ratings VIP as Host → the ratings vhost (service addresses are domains, §4)',
      out(`${vipOf('ratings')}:9080`),
      { virtualHost: `${fq('ratings')}:9080`, route: 'default', cluster: `outbound|9080||${fq('ratings')}` },
    ],
    [
      'the absolute FQDN "ratings.default.svc.cluster.local." → the ratings vhost',
      out(`${fq('ratings')}.`),
      { virtualHost: `${fq('ratings')}:9080`, cluster: `outbound|9080||${fq('ratings')}` },
    ],
    [
      'an unknown host on 9080 → allow_any → PassthroughCluster',
      out('www.example.com'),
      { virtualHost: 'allow_any', route: 'allow_any', cluster: 'PassthroughCluster' },
    ],
  ];
  it.each(rows)('%s', (_n, req, want) => {
    const r = simulate(cfg, req);
    expect(r).toMatchObject(want);
    expect(r.error).toBeUndefined();
  });

  it('without the header the rejected list names route 0 with "header end-user absent"', () => {
    const r = simulate(cfg, out('reviews:9080'));
    expect(r.rejected).toContainEqual({ hop: 'route', name: '', index: 0, reason: 'header end-user absent' });
  });
});

describe('Bookinfo inbound (§8)', () => {
  it('reviews-v2 pod on 9080 → virtualInbound → inbound|9080||', () => {
    const r = simulate(configOf('reviews', 'v2'), { mode: 'inbound', address: ipOf('reviews', 'v2'), port: 9080, host: 'reviews:9080' });
    expect(r).toMatchObject({
      listener: 'virtualInbound',
      routeConfig: 'inbound|9080||',
      virtualHost: 'inbound|http|9080',
      route: 'default',
      cluster: 'inbound|9080||',
    });
  });
});

describe('Bookinfo from a reviews sidecar (the VirtualService applies to every importing sidecar)', () => {
  it('reviews-v1 → ratings:9080 → outbound|9080||ratings; its own jason route applies to reviews too', () => {
    const cfg = configOf('reviews', 'v1');
    expect(simulate(cfg, out('ratings:9080', '/ratings/0'))).toMatchObject({ cluster: `outbound|9080||${fq('ratings')}` });
    expect(simulate(cfg, { ...out('reviews:9080'), headers: { 'end-user': 'jason' } })).toMatchObject({
      cluster: `outbound|9080|v2|${fq('reviews')}`,
    });
  });
});
