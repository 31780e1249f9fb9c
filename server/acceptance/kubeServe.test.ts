// Issue 5 acceptance, end to end with real processes: a loopback API server (the test-only fake that
// speaks the real list/watch protocol) holds Istio's Bookinfo as a cluster would (kubeBookinfo.ts);
// `node bin/meshscope.mjs serve --kubeconfig F --context C --namespace default` runs as a child process;
// the test changes the cluster through the fake API server only and watches
//   - /debug/config_dump?proxyID=<productpage pod>.default (istiod's debug endpoint shape), and
//   - the RDS a raw ADS client (sidecar node of the productpage pod) is pushed over real gRPC, and
//   - the route config a real proxyless @grpc/grpc-js-xds client (node metadata GENERATOR=grpc, per-channel
//     bootstrap pointing at the serve process's xDS port) has ACKed, read back through the client's own
//     CSDS admin service (envoy.service.status.v3.ClientStatusDiscoveryService, grpc-js-xds csds.ts).
// Expected routes (istio-translation.md §5, citing Istio's route code):
//   - no VirtualService for reviews: one vhost `reviews.default.svc.cluster.local:9080` in route config `9080`
//     with the generated default route (route.go:BuildDefaultHTTPOutboundRoute: name `default`, prefix `/`,
//     cluster `outbound|9080||reviews.default.svc.cluster.local`, timeout 0s);
//   - Bookinfo's virtual-service-reviews-80-20.yaml: one route, prefix `/`, weighted_clusters v1:80 / v2:20
//     (route.go:translateRoute copies weights as given; cluster names model.BuildSubsetKey);
//   - deleting the VirtualService brings the default route back (the service is no longer claimed).
// gRPC asks RDS for `outbound|9080||<fqdn>` (grpcgen rds.go) and gets the same sidecar virtual hosts of
// port 9080, so the same predicates apply. Its endpoints (pod IPs) are not reachable here: the test checks
// what the client accepted, not RPCs (server/xds/grpcXds.test.ts covers real RPC splits on loopback).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import * as grpcXds from '@grpc/grpc-js-xds';
import { loadSync } from '@grpc/proto-loader';
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
let grpcClient: grpc.Client | undefined;
let admin: grpc.Server | undefined;
let csds: Json;

/**
 * A free port below Linux's ephemeral range (32768–60999): serve binds it only after its build (minutes), and
 * a port the kernel handed out for port 0 could meanwhile go to another test's listener or an outgoing
 * connection (both draw from the ephemeral range); a port below it can be taken only by an explicit bind.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const p = 20_000 + Math.floor(Math.random() * 12_000);
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return p;
  }
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
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (${String(last ?? 'no match')})\n--- serve output ---\n${output.slice(-4000)}`);
    if (serve?.exitCode !== null && serve?.exitCode !== undefined)
      throw new Error(`serve exited ${serve.exitCode} while waiting for ${what}\n${output.slice(-4000)}`);
    await sleep(250);
  }
}

async function getJson(path: string): Promise<Json> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** Reads a server-sent event stream as text; `until(re)` resolves with the first match in what arrived since the last one. */
async function sseStream(path: string) {
  const ac = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: ac.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  let buf = '';
  return {
    async until(re: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = buf.match(re);
        if (m) {
          buf = buf.slice((m.index ?? 0) + m[0].length);
          return m;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${re} on ${path} within ${timeoutMs} ms; got ${JSON.stringify(buf.slice(-500))}`);
        let expire: (v: undefined) => void = () => undefined;
        const expired = new Promise<undefined>((r) => (expire = r));
        const timer = setTimeout(() => expire(undefined), left);
        const chunk = await Promise.race([reader.read(), expired]);
        clearTimeout(timer);
        if (chunk?.done) throw new Error(`${path} ended`);
        if (chunk?.value) buf += dec.decode(chunk.value, { stream: true });
      }
    },
    close: () => ac.abort(),
  };
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
const isDefault = (vh: Json) =>
  vh?.routes?.length === 1 && vh.routes[0].name === 'default' && vh.routes[0].route?.cluster === `outbound|9080||${REVIEWS}`;
const isSplit = (vh: Json, w1: number, w2: number) => {
  const c = weightedOf(vh);
  return (
    vh?.routes?.length === 1 &&
    c?.length === 2 &&
    c[0].name === `outbound|9080|v1|${REVIEWS}` &&
    c[0].weight === w1 &&
    c[1].name === `outbound|9080|v2|${REVIEWS}` &&
    c[1].weight === w2
  );
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

const grpcNodeId = () => `sidecar~${productpage.ip}~${productpage.name}.${BOOKINFO_NS}~${BOOKINFO_NS}.svc.cluster.local`;

/** A CSDS client for this process's gRPC admin server (grpc-js-xds registers CSDS there). */
async function startCsds(): Promise<Json> {
  admin = new grpc.Server();
  grpc.addAdminServicesToServer(admin);
  const adminPort = await new Promise<number>((resolve, reject) =>
    admin?.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const deps = join(REPO_ROOT, 'node_modules', '@grpc', 'grpc-js-xds', 'deps');
  const def = loadSync('envoy/service/status/v3/csds.proto', {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: ['envoy-api', 'xds', 'protoc-gen-validate', 'googleapis'].map((d) => join(deps, d)),
  });
  const pkg = grpc.loadPackageDefinition(def) as Json;
  return new pkg.envoy.service.status.v3.ClientStatusDiscoveryService(`127.0.0.1:${adminPort}`, grpc.credentials.createInsecure());
}

/** grpc-js-xds's CSDS names types without the `type.googleapis.com/` prefix. */
const sameType = (a: string, b: string) => a.replace(/^type\.googleapis\.com\//, '') === b.replace(/^type\.googleapis\.com\//, '');

/** The reviews vhost of the route config the gRPC client has ACKED (`outbound|9080||<fqdn>`), from CSDS. */
async function grpcClientReviewsVhost(): Promise<Json> {
  const resp: Json = await new Promise((resolve, reject) =>
    csds.FetchClientStatus({}, (e: Error | null, r: Json) => (e ? reject(e) : resolve(r))),
  );
  const mine = resp.config.find((c: Json) => c.node?.id === grpcNodeId());
  const rds = mine?.generic_xds_configs?.find((g: Json) => sameType(g.type_url, TYPE.route) && g.name === `outbound|9080||${REVIEWS}`);
  if (rds?.client_status !== 'ACKED' || !rds.xds_config?.value) {
    const seen = (mine?.generic_xds_configs ?? []).map(
      (g: Json) => `${g.type_url.split('.').pop()} ${g.name} ${g.client_status}${g.error_state ? ` (${g.error_state.details})` : ''}`,
    );
    throw new Error(
      `gRPC client state: ${mine ? seen.join('; ') || 'no resources' : `no CSDS entry for ${grpcNodeId()} among ${resp.config.length}`}`,
    );
  }
  const rc = toJson(RouteConfigurationSchema, fromBinary(RouteConfigurationSchema, rds.xds_config.value), {
    registry: envoyRegistry,
  }) as Json;
  return rc.virtualHosts?.find((v: Json) => v.name === `${REVIEWS}:9080`);
}

const grpcClientHas = (what: string, ok: (vh: Json) => boolean) =>
  until(`the gRPC client to accept ${what}`, async () => {
    const vh = await grpcClientReviewsVhost();
    return ok(vh) ? vh : undefined;
  });

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
  do xdsPort = await freePort();
  while (xdsPort === port);
  const args = [
    'serve',
    '--kubeconfig',
    kubeconfig,
    '--context',
    CONTEXT,
    '--namespace',
    BOOKINFO_NS,
    '--port',
    String(port),
    '--xds-port',
    String(xdsPort),
  ];
  serve = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, MESHSCOPE_DIST_DIR: '.next-kube', NO_COLOR: '1', KUBECONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: `next start` (its child) goes with it at the end
  });
  const keep = (b: Buffer) => void (output = (output + b.toString()).slice(-20_000));
  serve.stdout?.on('data', keep);
  serve.stderr?.on('data', keep);
  await until(
    'meshscope serve to answer /api/healthz',
    async () => ((await getJson('/api/healthz')).status === 'ok' ? true : undefined),
    BUILD_MS,
  );
}, BUILD_MS + 30_000);

afterAll(async () => {
  stream?.cancel();
  ads?.close();
  grpcClient?.close();
  csds?.close();
  admin?.forceShutdown();
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

describe('meshscope serve --kubeconfig against a loopback API server holding Bookinfo', { timeout: 90_000 }, () => {
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
    // The home page shows the source line (server-rendered): its state and the server it talks to.
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain('data-testid="sources"');
    expect(html).toContain('class="source state-connected"');
    expect(html).toContain(fake.url);
  });

  it('lists every Bookinfo pod as a sidecar proxy and dumps the default route for reviews (BuildDefaultHTTPOutboundRoute)', async () => {
    const proxies = await until('6 proxies', async () => {
      const body = await getJson('/api/proxies');
      return body.proxies.length === 6 ? body.proxies : undefined;
    });
    expect(proxies.map((p: Json) => p.id).sort()).toEqual(
      bookinfoCluster([bookinfo('platform', 'bookinfo.yaml')])
        .pods.map((p) => `${p.name}.${BOOKINFO_NS}`)
        .sort(),
    );
    const vh = await until('default reviews route in config_dump', async () => {
      const v = await dumpedReviewsVhost();
      return isDefault(v) ? v : undefined;
    });
    expect(vh.routes[0]).toMatchObject({
      name: 'default',
      match: { prefix: '/' },
      route: { cluster: `outbound|9080||${REVIEWS}`, timeout: '0s' },
    });
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

  it('a proxyless @grpc/grpc-js-xds client (GENERATOR=grpc) for xds:///reviews…:9080 accepts the default route', async () => {
    grpcXds.register();
    csds = await startCsds();
    const bootstrap = {
      xds_servers: [{ server_uri: `127.0.0.1:${xdsPort}`, channel_creds: [{ type: 'insecure' }], server_features: [] }],
      node: { id: grpcNodeId(), cluster: 'productpage.default', locality: {}, metadata: { GENERATOR: 'grpc', NAMESPACE: BOOKINFO_NS } },
    };
    grpcClient = new grpc.Client(`xds:///${REVIEWS}:9080`, grpc.credentials.createInsecure(), {
      'grpc.TEST_ONLY_DO_NOT_USE_IN_PROD.xds_bootstrap_config': JSON.stringify(bootstrap),
    });
    grpcClient.getChannel().getConnectivityState(true); // start name resolution: LDS → RDS → CDS → EDS
    const vh = await grpcClientHas('the default route', isDefault);
    expect(vh.domains).toContain(`${REVIEWS}:9080`); // gRPC matches the authority with its port (appendDomainPort)
  });

  it('creating the 80/20 VirtualService through the API server reaches config_dump and the ADS client', async () => {
    const [vs] = readManifest(bookinfo('networking', 'virtual-service-reviews-80-20.yaml'));
    fake.create({ ...vs, metadata: { ...(vs?.metadata as object), namespace: BOOKINFO_NS } });
    const vh = await until('80/20 in config_dump', async () => {
      const v = await dumpedReviewsVhost();
      return isSplit(v, 80, 20) ? v : undefined;
    });
    expect(vh.routes[0].match).toMatchObject({ prefix: '/' });
    expect(vh.routes[0].metadata.filter_metadata.istio.config).toBe(
      `/apis/networking.istio.io/v1/namespaces/${BOOKINFO_NS}/virtual-service/reviews`,
    );
    await pushedUntil('80/20', (v) => isSplit(v, 80, 20));
    await grpcClientHas('80/20', (v) => isSplit(v, 80, 20));
  });

  it('deleting it brings the default route back in config_dump and on the ADS stream', async () => {
    fake.delete({ apiVersion: 'networking.istio.io/v1', kind: 'VirtualService', namespace: BOOKINFO_NS, name: 'reviews' });
    await until('default route back in config_dump', async () => (isDefault(await dumpedReviewsVhost()) ? true : undefined));
    await pushedUntil('the default route again', isDefault);
    await grpcClientHas('the default route again', isDefault);
  });

  it('keeps serving the last good snapshot while the API server is away, shows failing, and recovers without a restart', async () => {
    const events = await sseStream('/api/events');
    await events.until(/event: hello\n/, 10_000);
    const versionBefore = (await getJson('/api/errors')).version;
    await fake.stop(); // connections dropped, then ECONNREFUSED
    const failing = await until('kube source failing', async () => {
      const st = await kubeStatus();
      return st?.state === 'failing' ? st : undefined;
    });
    expect(failing.lastError).toBeTruthy();
    // The UI learns it live: a `proxies` event with no proxy changed, so its lists (sources) are refetched.
    const ev = JSON.parse((await events.until(/event: proxies\ndata: (.*)\n/, 20_000))[1] ?? '{}');
    events.close();
    expect(ev).toMatchObject({ proxies: [], version: versionBefore });
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain('class="source state-failing"');
    expect(/class="error-text">(?:\s|—|<!-- -->)*\w/.test(html), 'the last error is shown').toBe(true);
    expect(isDefault(await dumpedReviewsVhost())).toBe(true); // last good snapshot still served
    expect((await getJson('/api/proxies')).proxies).toHaveLength(6);

    // A change made while meshscope cannot see the cluster arrives by relist once it is back.
    const [vs] = readManifest(bookinfo('networking', 'virtual-service-reviews-90-10.yaml'));
    fake.create({ ...vs, metadata: { ...(vs?.metadata as object), namespace: BOOKINFO_NS } });
    await fake.start(); // same port
    await until('kube source connected again', async () => ((await kubeStatus())?.state === 'connected' ? true : undefined), 60_000);
    await until('90/10 in config_dump after the outage', async () => (isSplit(await dumpedReviewsVhost(), 90, 10) ? true : undefined));
    await pushedUntil('90/10', (v) => isSplit(v, 90, 10));
    await grpcClientHas('90/10', (v) => isSplit(v, 90, 10));
  }, 120_000);
});
