// `meshscope simulate` acceptance, through the real CLI (bin/meshscope.mjs) as a user runs it.
// 1. Bookinfo + destination-rule-all.yaml + virtual-service-reviews-jason-v2-v3.yaml, from the productpage
//    sidecar: reviews:9080 with `end-user: jason` → subset v2, without → v3 (Istio's "Request Routing" task).
//    Derivation: sidecar RDS "9080" (httproute.go BuildSidecarOutboundVirtualHosts) has vhost
//    reviews.default.svc.cluster.local:9080 (domains include the short name `reviews`, §4 generateVirtualHostDomains;
//    ignore_port_in_host_matching strips :9080); its routes are the VirtualService's http rules in order
//    (route.go BuildHTTPRoutesForVirtualService): http[0] header end-user exact jason → outbound|9080|v2|…,
//    http[1] no match → outbound|9080|v3|…. The first matching route wins (Envoy).
// 2. `--dump` against each real config dump in ../shared/fixtures/envoy-config-dumps (derivations inline).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, configDumpFixture, REPO_ROOT } from '../testing/paths';
import { cliJson, runCli } from './cliRun';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const REVIEWS = 'reviews.default.svc.cluster.local';
const cfg = [
  '--config',
  bookinfo('platform', 'bookinfo.yaml'),
  '--config',
  bookinfo('networking', 'destination-rule-all.yaml'),
  '--config',
  bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml'),
];

/** DESIGN.md §3: the result's keys, in this order (routeIndex/redirect/directResponse/runtimeFraction/notes are documented extensions). */
const ORDER = [
  'listener',
  'filterChain',
  'routeConfig',
  'virtualHost',
  'route',
  'routeIndex',
  'cluster',
  'weightedClusters',
  'endpoints',
  'source',
  'redirect',
  'directResponse',
  'runtimeFraction',
  // meshscope's additive extension (issue #25 §5): the fields Envoy's router_check_tool validates.
  'routerCheck',
  'rejected',
  'notes',
  'error',
];

function expectDesignShape(r: Json) {
  const keys = Object.keys(r);
  for (const k of keys) expect(ORDER, `unexpected key ${k}`).toContain(k);
  expect(keys).toEqual([...keys].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)));
  expect(Array.isArray(r.rejected)).toBe(true);
  for (const x of r.rejected) {
    expect(typeof x.hop).toBe('string');
    expect(typeof x.name).toBe('string');
    expect(typeof x.reason).toBe('string');
  }
  if (r.source) expect(Object.keys(r.source)).toEqual(['kind', 'namespace', 'name', 'rule'].filter((k) => k in r.source));
}

describe('meshscope simulate: Bookinfo reviews jason → v2, others → v3', () => {
  const proxies = cliJson<Json[]>(['proxies', ...cfg, '-o', 'json']);
  const productpage = proxies.find((p) => p.labels.app === 'productpage');
  const base = [
    'simulate',
    ...cfg,
    '--proxy',
    productpage.id,
    '--mode',
    'outbound',
    '--port',
    '9080',
    '--host',
    'reviews:9080',
    '--path',
    '/reviews/1',
  ];
  const ipOf = (v: string) => proxies.find((p) => p.labels.app === 'reviews' && p.labels.version === v).ips[0];

  it('with end-user: jason → outbound|9080|v2|reviews, source VirtualService default/reviews rule http[0]', () => {
    const r = runCli([...base, '-H', 'end-user: jason']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expectDesignShape(j);
    expect(j).toMatchObject({
      listener: '0.0.0.0_9080',
      routeConfig: '9080',
      virtualHost: `${REVIEWS}:9080`,
      cluster: `outbound|9080|v2|${REVIEWS}`,
      endpoints: [`${ipOf('v2')}:9080`],
      source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[0]' },
    });
    expect(j.error).toBeUndefined();
  });

  it('without the header → v3; rejected names the header route with "header end-user absent"', () => {
    const r = runCli(base);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expectDesignShape(j);
    expect(j).toMatchObject({
      virtualHost: `${REVIEWS}:9080`,
      cluster: `outbound|9080|v3|${REVIEWS}`,
      endpoints: [`${ipOf('v3')}:9080`],
      source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[1]' },
    });
    expect(j.rejected).toContainEqual({ hop: 'route', name: '', index: 0, reason: 'header end-user absent' });
  });

  it('an unknown proxy is unusable input: non-zero exit, message on stderr', () => {
    const r = runCli(['simulate', ...cfg, '--proxy', 'nope.default', '--port', '9080']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('nope.default');
  });
});

describe('meshscope simulate: the rule of a route merged from a delegate VirtualService', () => {
  // Mesh of the delegate-sidecar golden: root shop/api http[0] (prefix /v1/users) delegates to team/users-routes,
  // whose http[0] (prefix /v1/users/id + header x-tenant: blue) and http[2] (no match → inherits /v1/users)
  // survive the merge (http[1], /v2, conflicts); root http[1] is the catch-all to api (virtualservice.go MergeHTTPRoutes).
  const file = join(REPO_ROOT, 'server/translate/testdata/delegate-sidecar/in.yaml');
  const { inputs } = loadPaths([file]);
  const web = buildSnapshot(inputs, { version: 1 }).proxies.find((p) => p.labels['app'] === 'web')!;
  const base = ['simulate', '--config', file, '--proxy', web.id, '--port', '8080', '--host', 'api:8080'];

  it('/v1/users/id/7 with x-tenant: blue → users.team via "http[0] → delegate team/users-routes http[0]"', () => {
    const j = cliJson<Json>([...base, '--path', '/v1/users/id/7', '-H', 'x-tenant: blue']);
    expect(j).toMatchObject({
      route: 'users-by-id',
      cluster: 'outbound|8080||users.team.svc.cluster.local',
      source: { kind: 'VirtualService', namespace: 'shop', name: 'api', rule: 'http[0] → delegate team/users-routes http[0]' },
    });
  });

  it('/v1/users/x → the delegate route without match (http[2]); /other → root http[1]', () => {
    expect(cliJson<Json>([...base, '--path', '/v1/users/x']).source.rule).toBe('http[0] → delegate team/users-routes http[2]');
    expect(cliJson<Json>([...base, '--path', '/other']).source).toEqual({
      kind: 'VirtualService',
      namespace: 'shop',
      name: 'api',
      rule: 'http[1]',
    });
  });
});

describe('meshscope simulate --dump on the real config dumps', () => {
  const sim = (file: string, ...args: string[]) => {
    const r = runCli(['simulate', '--dump', configDumpFixture(file), ...args]);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expectDesignShape(j);
    return j;
  };

  // waypoint-config_dump.json: static listener 0.0.0.0:15021, one chain, inline route config with vhost
  // "backend" (domains *) whose route prefix /healthz/ready → cluster "agent" (STATIC, 127.0.0.1:15020).
  it('waypoint: GET /healthz/ready on :15021 → agent at 127.0.0.1:15020', () => {
    const j = sim(
      'waypoint-config_dump.json',
      '--mode',
      'gateway',
      '--port',
      '15021',
      '--path',
      '/healthz/ready',
      '--host',
      '10.0.0.1:15021',
    );
    expect(j).toMatchObject({ listener: '0.0.0.0_15021', virtualHost: 'backend', cluster: 'agent', endpoints: ['127.0.0.1:15020'] });
    expect(j.error).toBeUndefined();
  });

  // sidecar-config_dump.json: connect_terminate binds 0.0.0.0:15008, terminates mTLS (workload certificate,
  // client certificate required: an HBONE client is an Istio mTLS client), and its inline route config
  // "default" has one route with connect_matcher → cluster main_internal (not in this dump's CDS).
  it('sidecar (ambient waypoint dump): HBONE CONNECT on :15008 → connect_terminate → main_internal', () => {
    const j = sim(
      'sidecar-config_dump.json',
      '--mode',
      'gateway',
      '--port',
      '15008',
      '--tls',
      'mtls',
      '--protocol',
      'http2',
      '-X',
      'CONNECT',
      '--host',
      '10.96.1.201:9080',
    );
    expect(j).toMatchObject({ listener: 'connect_terminate', routeConfig: 'default', virtualHost: 'default', cluster: 'main_internal' });
    expect(j.error).toBeUndefined();
  });

  // gateway-routes-config_dump.json holds only RDS (http.8080) and endpoints-config_dump.json only EDS: a full
  // walk has no listener to start from, so the precise Istio-simulator error is "no listener matched".
  it.each(['gateway-routes-config_dump.json', 'endpoints-config_dump.json'])('%s: no listeners → "no listener matched"', (file) => {
    const j = sim(file, '--mode', 'gateway', '--port', '8080', '--host', 'httpbin.example.com', '--path', '/get');
    expect(j.error).toBe('no listener matched');
  });

  it('a file that is not JSON is unusable input: non-zero exit', () => {
    const r = runCli(['simulate', '--dump', bookinfo('platform', 'bookinfo.yaml'), '--port', '80']);
    expect(r.status).not.toBe(0);
  });
});
