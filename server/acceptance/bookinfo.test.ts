// Foundation acceptance, on Istio's Bookinfo manifests as they are (../shared/fixtures):
// `meshscope proxies` and `meshscope translate` for the productpage sidecar.
// Expected values come from Istio's "Traffic Shifting" task and istio-translation.md:
// - route config named by port (`9080`, httproute.go BuildSidecarOutboundVirtualHosts), vhost `<fqdn>:<port>`;
// - one http route without match → one Envoy route `prefix: /` with weighted_clusters copied as given (80/20);
// - subset clusters `outbound|9080|<subset>|reviews.default.svc.cluster.local` per DestinationRule subset (cluster.go);
// - EDS of a subset cluster holds only pods whose labels match the subset (version=vN), at the pod IP and targetPort 9080.
import { describe, expect, it } from 'vitest';
import { bookinfo } from '../testing/paths';
import { cliJson, runCli } from './cliRun';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const REVIEWS = 'reviews.default.svc.cluster.local';
const cfg = [
  '--config',
  bookinfo('platform', 'bookinfo.yaml'),
  '--config',
  bookinfo('networking', 'destination-rule-all.yaml'),
  '--config',
  bookinfo('networking', 'virtual-service-reviews-80-20.yaml'),
];

function section(dump: Json, type: string): Json {
  const s = dump.configs.find((c: Json) => c['@type'] === `type.googleapis.com/envoy.admin.v3.${type}`);
  expect(s, `${type} in config_dump`).toBeDefined();
  return s;
}

describe('bookinfo 80/20 through the CLI', () => {
  const proxies = cliJson<Json[]>(['proxies', ...cfg, '-o', 'json']);
  const productpage = proxies.find((p) => p.labels.app === 'productpage');

  it('lists every Bookinfo pod as a sidecar proxy in default', () => {
    expect(proxies.map((p) => p.labels.app).sort()).toEqual(['details', 'productpage', 'ratings', 'reviews', 'reviews', 'reviews']);
    for (const p of proxies) {
      expect(p.type).toBe('sidecar');
      expect(p.namespace).toBe('default');
      expect(p.id).toMatch(/^[a-z0-9-]+\.default$/);
      expect(p.ips.length).toBe(1);
    }
  });

  it('routes reviews 80/20 between subsets v1 and v2 in route config 9080', () => {
    const dump = cliJson<Json>(['translate', ...cfg, '--proxy', productpage.id, '--type', 'routes']);
    expect(dump.configs).toHaveLength(1);
    const rc = section(dump, 'RoutesConfigDump').dynamic_route_configs.map((r: Json) => r.route_config);
    const r9080 = rc.find((r: Json) => r.name === '9080');
    expect(r9080).toBeDefined();
    const vh = r9080.virtual_hosts.find((v: Json) => v.name === `${REVIEWS}:9080`);
    expect(vh).toBeDefined();
    expect(vh.domains).toContain(REVIEWS);
    expect(vh.domains).toContain('reviews');
    expect(vh.routes).toHaveLength(1);
    expect(vh.routes[0].match).toMatchObject({ prefix: '/' });
    expect(vh.routes[0].route.weighted_clusters.clusters).toEqual([
      expect.objectContaining({ name: `outbound|9080|v1|${REVIEWS}`, weight: 80 }),
      expect.objectContaining({ name: `outbound|9080|v2|${REVIEWS}`, weight: 20 }),
    ]);
    expect(vh.routes[0].metadata.filter_metadata.istio.config).toBe(
      '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews',
    );
    // Istio appends the catch-all vhost for ALLOW_ANY (buildCatchAllVirtualHost).
    expect(r9080.virtual_hosts.at(-1).name).toBe('allow_any');
  });

  it('lists the v1/v2/v3 subset clusters with their endpoints', () => {
    const all = cliJson<Json>(['translate', ...cfg, '--proxy', productpage.id, '--type', 'all']);
    const clusters = section(all, 'ClustersConfigDump').dynamic_active_clusters.map((c: Json) => c.cluster);
    const eps = section(all, 'EndpointsConfigDump').dynamic_endpoint_configs.map((e: Json) => e.endpoint_config);
    const ipOf = (version: string) => proxies.find((p) => p.labels.app === 'reviews' && p.labels.version === version).ips[0];
    for (const v of ['v1', 'v2', 'v3']) {
      const name = `outbound|9080|${v}|${REVIEWS}`;
      const c = clusters.find((x: Json) => x.name === name);
      expect(c, name).toBeDefined();
      expect(c.type).toBe('EDS');
      const cla = eps.find((e: Json) => e.cluster_name === name);
      expect(cla, `endpoints of ${name}`).toBeDefined();
      const addrs = cla.endpoints.flatMap((l: Json) => l.lb_endpoints.map((e: Json) => e.endpoint.address.socket_address));
      expect(addrs).toEqual([{ address: ipOf(v), port_value: 9080 }]);
    }
    const unsplit = eps.find((e: Json) => e.cluster_name === `outbound|9080||${REVIEWS}`);
    expect(unsplit.endpoints.flatMap((l: Json) => l.lb_endpoints)).toHaveLength(3);
  });

  it('fails clearly for an unknown proxy', () => {
    const r = runCli(['translate', ...cfg, '--proxy', 'nope.default']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/nope\.default/);
  });
});
