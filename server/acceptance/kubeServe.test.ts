// Issue 5 acceptance, end to end with real processes: a loopback API server (the test-only fake that
// speaks the real list/watch protocol) holds Istio's Bookinfo as a cluster would (kubeBookinfo.ts);
// `node bin/meshscope.mjs serve --kubeconfig F --context C --namespace default` runs as a child process;
// the test changes the cluster through the fake API server only and watches
//   - /debug/config_dump?proxyID=<productpage pod>.default (istiod's debug endpoint shape), and
//   - the RDS a connected ADS client (sidecar node of the productpage pod) is pushed over real gRPC.
// Expected routes (istio-translation.md §5, citing Istio's route code):
//   - no VirtualService for reviews: one vhost `reviews.default.svc.cluster.local:9080` in route config `9080`
//     with the generated default route (route.go:BuildDefaultHTTPOutboundRoute: name `default`, prefix `/`,
//     cluster `outbound|9080||reviews.default.svc.cluster.local`, timeout 0s);
//   - Bookinfo's virtual-service-reviews-80-20.yaml: one route, prefix `/`, weighted_clusters v1:80 / v2:20
//     (route.go:translateRoute copies weights as given; cluster names model.BuildSubsetKey);
//   - deleting the VirtualService brings the default route back (the service is no longer claimed).
// The proxyless gRPC generator (GENERATOR=grpc) is not part of the runtime yet, so the xDS client here is
// the raw ADS client (server/xds/testing/adsTestClient.ts) acting as the productpage sidecar.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { RouteConfigurationSchema } from '../gen/envoy/config/route/v3/route_pb';
import { envoyRegistry } from '../gen/registry';
import type { DiscoveryResponse } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { readManifest } from '../sources/kube/testing/harness';
import { FakeApiServer } from '../sources/kube/testing/fakeApiServer';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { AdsTestClient, type SotwTestStream } from '../xds/testing/adsTestClient';
import { BOOKINFO_NS, bookinfoCluster, writeKubeconfig } from './kubeBookinfo';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const REVIEWS = 'reviews.default.svc.cluster.local';
const CONTEXT = 'bookinfo-fake';
const BUILD_MS = 8 * 60_000; // the first serve builds the Next app (1–2 min here, more when the machine is busy)

let fake: FakeApiServer;
let dir: string;
let kubeconfig: string;
let serve: ChildProcess | undefined;
let output = '';
let port = 0;
let xdsPort = 0;
let productpage: { name: string; ip: string };
let ads: AdsTestClient | undefined;
let stream: SotwTestStream | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const p = a && typeof a === 'object' ? a.port : 0;
      s.close(() => resolve(p));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value (not undefined); fails with `what` and the serve output. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${String(last ?? 'no match')})\n--- serve output ---\n${output.slice(-4000)}`);
    if (serve?.exitCode !== null && serve?.exitCode !== undefined) throw new Error(`serve exited ${serve.exitCode} while waiting for ${what}\n${output.slice(-4000)}`);
    await sleep(250);
  }
}

async function getJson(path: string): Promise<Json> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const kubeStatus = async (): Promise<Json> => (await getJson('/api/errors')).sources.find((s: Json) => s.kind === 'kube');

/** The reviews vhost of route config 9080 in the config_dump of the productpage proxy. */
async function dumpedReviewsVhost(): Promise<Json> {
  const dump = await getJson(`/debug/config_dump?proxyID=${productpage.name}.${BOOKINFO_NS}`);
  const routes = dump.configs.find((c: Json) => c['@type'] === 'type.googleapis.com/envoy.admin.v3.RoutesConfigDump');
  const rc = routes?.dynamic_route_configs?.map((r: Json) => r.route_config).find((r: Json) => r.name === '9080');
  return rc?.virtual_hosts?.find((v: Json) => v.name === `${REVIEWS}:9080`);
}

// Predicates on one vhost, in config_dump's snake_case or the ADS client's camelCase proto3 JSON.
const weightedOf = (vh: Json) => (vh?.routes?.[0]?.route?.weighted_clusters ?? vh?.routes?.[0]?.route?.weightedClusters)?.clusters;
const isDefault = (vh: Json) => vh?.routes?.length === 1 && vh.routes[0].name === 'default' && vh.routes[0].route?.cluster === `outbound|9080||${REVIEWS}`;
const isSplit = (vh: Json, w1: number, w2: number) => {
  const c = weightedOf(vh);
  return vh?.routes?.length === 1 && c?.length === 2 && c[0].name === `outbound|9080|v1|${REVIEWS}` && c[0].weight === w1 && c[1].name === `outbound|9080|v2|${REVIEWS}` && c[1].weight === w2;
};

/** The reviews vhost in an RDS response (decoded with the generated Envoy schemas). */
function pushedReviewsVhost(resp: DiscoveryResponse): Json {
  for (const any of resp.resources) {
    const rc = toJson(RouteConfigurationSchema, fromBinary(RouteConfigurationSchema, any.value), { registry: envoyRegistry }) as Json;
    if (rc.name === '9080') return rc.virtualHosts?.find((v: Json) => v.name === `${REVIEWS}:9080`);
  }
  return undefined;
}

/** Reads (and ACKs) pushes on the ADS stream until an RDS response satisfies `ok`. */
async function pushedUntil(what: string, ok: (vh: Json) => boolean, timeoutMs = 30_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  const s = stream as SotwTestStream;
  for (;;) {
    const resp = await s.next(Math.max(1, deadline - Date.now())).catch((e: Error) => {
      throw new Error(`no RDS push with ${what}: ${e.message}`);
    });
    s.ack(resp);
    if (resp.typeUrl !== TYPE.route) continue;
    const vh = pushedReviewsVhost(resp);
    if (ok(vh)) return vh;
  }
}

beforeAll(async () => {
  const cluster = bookinfoCluster([bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'destination-rule-all.yaml')]);
  const pp = cluster.pods.find((p) => p.labels.app === 'productpage');
  if (!pp) throw new Error('Bookinfo has no productpage Deployment');
  productpage = pp;
  fake = new FakeApiServer();
  for (const o of cluster.objects) fake.create(o);
  await fake.start();
  dir = mkdtempSync(join(tmpdir(), 'meshscope-kube-e2e-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, fake.url, CONTEXT);
  port = await freePort();
  xdsPort = await freePort();
  const args = ['serve', '--kubeconfig', kubeconfig, '--context', CONTEXT, '--namespace', BOOKINFO_NS, '--port', String(port), '--xds-port', String(xdsPort)];
  serve = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, MESHSCOPE_DIST_DIR: '.next-kube', NO_COLOR: '1', KUBECONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: `next start` (its child) goes with it at the end
  });
  const keep = (b: Buffer) => void (output = (output + b.toString()).slice(-20_000));
  serve.stdout?.on('data', keep);
  serve.stderr?.on('data', keep);
  await until('meshscope serve to answer /api/healthz', async () => ((await getJson('/api/healthz')).status === 'ok' ? true : undefined), BUILD_MS);
}, BUILD_MS + 30_000);

afterAll(async () => {
  stream?.cancel();
  ads?.close();
  const child = serve;
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM'); // serve forwards it to its `next start` child and exits with it
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL'); // the group we created (detached)
  }
  await fake?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('meshscope serve --kubeconfig against a loopback API server holding Bookinfo', () => {
  it('reaches the cluster through --kubeconfig/--context, watches only --namespace, and reports the source connected', async () => {
    const s = await until('kube source connected', async () => {
      const st = await kubeStatus();
      return st?.state === 'connected' ? st : undefined;
    });
    expect(s.detail).toContain(`file ${kubeconfig}`);
    expect(s.detail).toContain(fake.url); // the --context cluster, not the kubeconfig's current context
    expect(s.detail).toContain(`namespaces: ${BOOKINFO_NS}`);
    // --namespace default: namespaced kinds are listed/watched under /namespaces/default only.
    const collections = fake.requests.map((r) => r.path).filter((p) => /\/(pods|services|endpointslices|virtualservices)$/.test(p));
    expect(collections.length).toBeGreaterThan(0);
    for (const p of collections) expect(p).toContain(`/namespaces/${BOOKINFO_NS}/`);
    // The home page shows the source line (server-rendered).
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain('data-testid="sources"');
    expect(html).toMatch(/kube.*connected/s);
  });

  it('lists every Bookinfo pod as a sidecar proxy and dumps the default route for reviews (BuildDefaultHTTPOutboundRoute)', async () => {
    const proxies = await until('6 proxies', async () => {
      const body = await getJson('/api/proxies');
      return body.proxies.length === 6 ? body.proxies : undefined;
    });
    expect(proxies.map((p: Json) => p.id).sort()).toEqual(bookinfoCluster([bookinfo('platform', 'bookinfo.yaml')]).pods.map((p) => `${p.name}.${BOOKINFO_NS}`).sort());
    const vh = await until('default reviews route in config_dump', async () => {
      const v = await dumpedReviewsVhost();
      return isDefault(v) ? v : undefined;
    });
    expect(vh.routes[0]).toMatchObject({ name: 'default', match: { prefix: '/' }, route: { cluster: `outbound|9080||${REVIEWS}`, timeout: '0s' } });
    expect(vh.domains).toContain(REVIEWS);
  });

  it('an ADS client connected as the productpage sidecar is pushed the default route', async () => {
    ads = new AdsTestClient(xdsPort);
    stream = ads.sotw({
      id: `sidecar~${productpage.ip}~${productpage.name}.${BOOKINFO_NS}~${BOOKINFO_NS}.svc.cluster.local`,
      metadata: { NAMESPACE: BOOKINFO_NS, CLUSTER_ID: 'Kubernetes' },
    });
    stream.send({ typeUrl: TYPE.route, resourceNames: ['9080'] });
    const vh = await pushedUntil('the default route', isDefault);
    expect(vh.routes[0].match).toEqual({ prefix: '/' });
  });

  it('creating the 80/20 VirtualService through the API server reaches config_dump and the ADS client', async () => {
    const [vs] = readManifest(bookinfo('networking', 'virtual-service-reviews-80-20.yaml'));
    fake.create({ ...vs, metadata: { ...(vs?.metadata as object), namespace: BOOKINFO_NS } });
    const vh = await until('80/20 in config_dump', async () => {
      const v = await dumpedReviewsVhost();
      return isSplit(v, 80, 20) ? v : undefined;
    });
    expect(vh.routes[0].match).toMatchObject({ prefix: '/' });
    expect(vh.routes[0].metadata.filter_metadata.istio.config).toBe(`/apis/networking.istio.io/v1/namespaces/${BOOKINFO_NS}/virtual-service/reviews`);
    await pushedUntil('80/20', (v) => isSplit(v, 80, 20));
  });

  it('deleting it brings the default route back in config_dump and on the ADS stream', async () => {
    fake.delete({ apiVersion: 'networking.istio.io/v1', kind: 'VirtualService', namespace: BOOKINFO_NS, name: 'reviews' });
    await until('default route back in config_dump', async () => (isDefault(await dumpedReviewsVhost()) ? true : undefined));
    await pushedUntil('the default route again', isDefault);
  });

  it('keeps serving the last good snapshot while the API server is away, shows failing, and recovers without a restart', async () => {
    await fake.stop(); // connections dropped, then ECONNREFUSED
    const failing = await until('kube source failing', async () => {
      const st = await kubeStatus();
      return st?.state === 'failing' ? st : undefined;
    });
    expect(failing.lastError).toBeTruthy();
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toMatch(/kube.*failing/s);
    expect(isDefault(await dumpedReviewsVhost())).toBe(true); // last good snapshot still served
    expect((await getJson('/api/proxies')).proxies).toHaveLength(6);

    // A change made while meshscope cannot see the cluster arrives by relist once it is back.
    const [vs] = readManifest(bookinfo('networking', 'virtual-service-reviews-90-10.yaml'));
    fake.create({ ...vs, metadata: { ...(vs?.metadata as object), namespace: BOOKINFO_NS } });
    await fake.start(); // same port
    await until('kube source connected again', async () => ((await kubeStatus())?.state === 'connected' ? true : undefined), 60_000);
    await until('90/10 in config_dump after the outage', async () => (isSplit(await dumpedReviewsVhost(), 90, 10) ? true : undefined));
    await pushedUntil('90/10', (v) => isSplit(v, 90, 10));
  }, 120_000);
});
