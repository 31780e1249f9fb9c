// Issue 21 acceptance, live half (the issue's first bullet): a kube-mode runtime with `--live-config` against the
// in-repo fake API server holding Istio's Bookinfo (kubeBookinfo.ts), whose pods' Envoy admin ports are loopback
// stand-ins reached only through the fake's WebSocket port-forward (v4.channel.k8s.io framing, several frames
// per body). Handlers are the same transport-free functions the route adapters call (app/api/proxies/[id]/live,
// …/drift); the HTTP round trip is e2e/live-drift.spec.ts.
//   - /live returns the dump the admin port served, with the proxy page's tables over it;
//   - a dump built from meshscope's own translation plus the noise of a real Envoy dump (envoy admin v3
//     config_dump.proto: version_info / last_updated per entry, bootstrap and static sections, a draining copy
//     beside an active listener; `10.000s` for `10s`, protojson's other spelling of the same Duration; resource
//     and virtual-host order, which istioctl sorts before comparing, istioctl/pkg/util/configdump/route.go) is
//     in sync;
//   - injected drift (a weight change, a missing and an extra cluster, a changed timeout, a rejected listener:
//     Envoy's `error_state`, its NACK record) is reported exactly and nothing else;
//   - after a VirtualService edit the meshscope side follows;
//   - 403 / refused / timeout / unknown pod → 403 / 502 / 504 / 404 with a stage, and the runtime stays healthy;
//   - only allow-listed GETs ever reached an admin port, and the pods/…/proxy subresource was never used.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyLive } from '../api/live';
import { proxyDrift } from '../api/liveDrift';
import { ENVOY_ADMIN_ALLOWED } from '../live/admin';
import { clone, DETAILS, drifted, envoyLike, EXTRA, REVIEWS, REVIEWS_V3, section } from '../live/testing/envoyDumps';
import { configDumpFor } from '../pipeline/configDump';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { FakeApiServer } from '../sources/kube/testing/fakeApiServer';
import { FakeEnvoyAdmin } from '../sources/kube/testing/fakeEnvoyAdmin';
import { readManifest } from '../sources/kube/testing/harness';
import { bookinfo } from '../testing/paths';
import { BOOKINFO_NS, bookinfoCluster, writeKubeconfig } from './kubeBookinfo';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CONTEXT = 'bookinfo-live';

let fake: FakeApiServer;
let rt: MeshscopeRuntime;
let dir: string;
const admins: FakeEnvoyAdmin[] = [];
let admin: FakeEnvoyAdmin; // productpage's
let ids: Record<'productpage' | 'reviews' | 'details' | 'ratings', string>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function newAdmin(): Promise<FakeEnvoyAdmin> {
  const a = new FakeEnvoyAdmin();
  await a.start();
  admins.push(a);
  return a;
}

const nodeId = () => `sidecar~10.244.0.10~${ids.productpage}~default.svc.cluster.local`;

/** meshscope's own dump for the pod, from the runtime's current snapshot. */
const meshscopeDump = (id: string): J => configDumpFor(rt.snapshot(), id, { options: rt.options })?.dump as J;

beforeAll(async () => {
  fake = new FakeApiServer();
  await fake.start();
  const cluster = bookinfoCluster([
    bookinfo('platform', 'bookinfo.yaml'),
    bookinfo('networking', 'destination-rule-all.yaml'),
    bookinfo('networking', 'virtual-service-reviews-80-20.yaml'),
  ]);
  for (const o of cluster.objects) fake.create(o);
  const pod = (app: string) => `${cluster.pods.find((p) => p.name.startsWith(`${app}-v1`))?.name}.${BOOKINFO_NS}`;
  ids = { productpage: pod('productpage'), reviews: pod('reviews'), details: pod('details'), ratings: pod('ratings') };
  dir = mkdtempSync(join(tmpdir(), 'meshscope-live-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, fake.url, CONTEXT);
  // Production limits except the timeout (10 s → 3 s) and the cache (5 s → none), so each check refetches.
  rt = createRuntimeForTest(
    { kubeconfig, context: CONTEXT, liveConfig: true },
    { log: () => undefined, live: { timeoutMs: 3_000, cacheMs: 0 } },
  );
  await rt.ready;
  await until('the productpage proxy', () => (rt.snapshot().proxiesById.has(ids.productpage) ? true : undefined));
  const podOf = (id: string) => id.slice(0, id.lastIndexOf('.'));
  // productpage: a working admin port.
  admin = await newAdmin();
  admin.dump = envoyLike(meshscopeDump(ids.productpage), nodeId());
  fake.portForward.forward(BOOKINFO_NS, podOf(ids.productpage), 15000, admin.port);
  // reviews: RBAC without create on pods/portforward.
  fake.portForward.deny(BOOKINFO_NS, podOf(ids.reviews));
  // details: nothing listens on the admin port (the kubelet's dial is refused).
  const gone = await newAdmin();
  await gone.stop();
  fake.portForward.forward(BOOKINFO_NS, podOf(ids.details), 15000, gone.port);
  // ratings: an admin that never answers.
  const hung = await newAdmin();
  hung.hang = true;
  fake.portForward.forward(BOOKINFO_NS, podOf(ids.ratings), 15000, hung.port);
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  for (const a of admins) await a.stop();
  await fake?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('live config through the port-forward (issue 21 acceptance)', () => {
  it('/live returns the dump the admin port served, with the proxy page tables over it', async () => {
    const r = await proxyLive(rt.liveSource(), ids.productpage);
    expect(r.status).toBe(200);
    const body = r.body as J;
    expect(body.proxy).toBe(ids.productpage);
    expect(body.source).toBe('portforward');
    expect(body.configDump).toEqual(admin.dump);
    expect(body.bytes).toBe(Buffer.byteLength(JSON.stringify(admin.dump, null, 2)));
    expect(body.errors).toEqual([]);
    const names = (body.tables.clusters as J[]).map((c) => c.name);
    // Every dynamic cluster meshscope generates, plus the static one of the Envoy dump.
    for (const e of section(meshscopeDump(ids.productpage), 'ClustersConfigDump').dynamic_active_clusters)
      expect(names).toContain(e.cluster.name);
    expect(names).toContain('prometheus_stats');
    expect((body.tables.routes as J[]).map((x) => x.name)).toContain('9080');
  });

  it("meshscope's own translation with a real dump's noise is in sync", async () => {
    const r = await proxyDrift(rt.context(), rt.liveSource(), ids.productpage);
    expect(r.status).toBe(200);
    const d = r.body as J;
    expect(d.proxy).toBe(ids.productpage);
    expect(d.resources).toEqual([]);
    expect(d.nacked).toEqual([]);
    expect(d.inSync).toBe(true);
    expect(d.ignored).toEqual({ static: 2, warming: 0, draining: 1 });
  });

  it('injected drift is reported exactly, nothing else', async () => {
    const clean = admin.dump;
    admin.dump = drifted(meshscopeDump(ids.productpage));
    try {
      const d = (await proxyDrift(rt.context(), rt.liveSource(), ids.productpage)).body as J;
      expect(d.inSync).toBe(false);
      expect(d.resources.map(({ type, name, change, paths }: J) => ({ type, name, change, paths }))).toEqual([
        {
          type: 'routes',
          name: '9080',
          change: 'changed',
          paths: [
            `virtual_hosts[${REVIEWS}:9080].routes[0].route.weighted_clusters.clusters[outbound|9080|v1|${REVIEWS}].weight`,
            `virtual_hosts[${REVIEWS}:9080].routes[0].route.weighted_clusters.clusters[outbound|9080|v2|${REVIEWS}].weight`,
          ],
        },
        { type: 'clusters', name: REVIEWS_V3, change: 'onlyInMeshscope', paths: undefined },
        { type: 'clusters', name: DETAILS, change: 'changed', paths: ['connect_timeout'] },
        { type: 'clusters', name: EXTRA, change: 'onlyInEnvoy', paths: undefined },
        { type: 'endpoints', name: REVIEWS_V3, change: 'onlyInMeshscope', paths: undefined },
        { type: 'endpoints', name: EXTRA, change: 'onlyInEnvoy', paths: undefined },
      ]);
      const rejected = section(admin.dump as J, 'ListenersConfigDump').dynamic_listeners.find((e: J) => e.error_state);
      expect(d.nacked).toEqual([{ type: 'listeners', name: rejected.name, details: rejected.error_state.details }]);
      // The route difference in the sandbox's words: before = meshscope (80/20), after = Envoy (70/30).
      expect(JSON.stringify(d.routes)).toMatch(/80/);
      expect(JSON.stringify(d.routes)).toMatch(/70/);
    } finally {
      admin.dump = clean;
    }
  });

  it('after a VirtualService edit the meshscope side follows', async () => {
    const [vs] = readManifest(bookinfo('networking', 'virtual-service-reviews-90-10.yaml'));
    fake.update({ ...(vs as J), metadata: { ...(vs as J).metadata, namespace: BOOKINFO_NS } });
    // The Envoy still holds 80/20 (istiod has not pushed yet, say): exactly route 9080's two weights differ.
    const d = await until('the 90/10 edit in meshscope', async () => {
      const b = (await proxyDrift(rt.context(), rt.liveSource(), ids.productpage)).body as J;
      return b.inSync === false ? b : undefined;
    });
    expect(d.resources.map((x: J) => `${x.type} ${x.name} ${x.change}`)).toEqual(['routes 9080 changed']);
    const mine = d.resources[0].meshscope.virtual_hosts.find((v: J) => v.name === `${REVIEWS}:9080`);
    expect(mine.routes[0].route.weighted_clusters.clusters.map((c: J) => c.weight)).toEqual([90, 10]);
    // The Envoy catches up: in sync again.
    admin.dump = envoyLike(meshscopeDump(ids.productpage), nodeId());
    expect(((await proxyDrift(rt.context(), rt.liveSource(), ids.productpage)).body as J).inSync).toBe(true);
  });

  it('forbidden / refused / timeout / unknown pod → 403 / 502 / 504 / 404 with a stage; the runtime stays healthy', async () => {
    const cases: [string, number, string][] = [
      [ids.reviews, 403, 'portforward'],
      [ids.details, 502, 'admin'],
      [ids.ratings, 504, 'timeout'],
      [`nosuch-v1-0.${BOOKINFO_NS}`, 404, 'pod'],
    ];
    for (const [id, status, stage] of cases) {
      const r = await proxyLive(rt.liveSource(), id);
      expect([id, r.status, (r.body as J).stage]).toEqual([id, status, stage]);
      expect((r.body as J).error).toBeTruthy();
    }
    const forbidden = (await proxyLive(rt.liveSource(), ids.reviews)).body as J;
    expect(forbidden.error).toMatch(/\bget\b/);
    expect(forbidden.error).toMatch(/\bcreate\b/);
    expect(forbidden.error).toContain('pods/portforward');
    expect(((await proxyLive(rt.liveSource(), `nosuch-v1-0.${BOOKINFO_NS}`)).body as J).error).toContain('nosuch-v1-0');
    // /drift answers the same statuses (an id meshscope does not know is a 404 before any port-forward).
    for (const [id, status] of cases.slice(0, 3)) expect((await proxyDrift(rt.context(), rt.liveSource(), id)).status).toBe(status);
    const unknown = await proxyDrift(rt.context(), rt.liveSource(), `nosuch-v1-0.${BOOKINFO_NS}`);
    expect([unknown.status, (unknown.body as J).stage]).toEqual([404, 'proxy']);
    // Healthy afterwards: the working pod still answers, the kube source still watches.
    expect((await proxyLive(rt.liveSource(), ids.productpage)).status).toBe(200);
    expect(rt.statuses().find((s) => s.kind === 'kube')?.state).toBe('connected');
  });

  it('?with=istiod: the istiod pod holding the connection answers; meshscope → istiod and istiod → Envoy are compared', async () => {
    const other = await newAdmin();
    const holder = await newAdmin();
    // istiod's view: what it pushed (here meshscope's translation, with a drifted details timeout).
    const pushed = clone(meshscopeDump(ids.productpage));
    section(pushed, 'ClustersConfigDump').dynamic_active_clusters.find((e: J) => e.cluster.name === DETAILS).cluster.connect_timeout = '3s';
    holder.debugDumps.set(ids.productpage, pushed);
    for (const [name, a] of [
      ['istiod-7d4f9-aaaaa', other],
      ['istiod-7d4f9-bbbbb', holder],
    ] as const) {
      fake.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'istio-system', labels: { app: 'istiod' } },
        spec: { containers: [{ name: 'discovery', image: 'pilot' }] },
        status: { phase: 'Running', podIP: '10.244.1.2' },
      });
      fake.portForward.forward('istio-system', name, 15014, a.port);
    }
    const r = await proxyDrift(rt.context(), rt.liveSource(), ids.productpage, { withIstiod: true });
    expect(r.status).toBe(200);
    const d = r.body as J;
    expect(d.inSync).toBe(true); // meshscope ↔ Envoy
    expect(d.istiod.meshscope.resources.map((x: J) => `${x.type} ${x.name} ${x.change} ${x.paths}`)).toEqual([
      `clusters ${DETAILS} changed connect_timeout`,
    ]);
    expect(d.istiod.envoy.resources.map((x: J) => `${x.type} ${x.name} ${x.change} ${x.paths}`)).toEqual([
      `clusters ${DETAILS} changed connect_timeout`,
    ]);
    expect(holder.requests.map((q) => q.url)).toEqual([`/debug/config_dump?proxyID=${ids.productpage}`]);
  });

  it('without --live-config: 404 naming the flag', async () => {
    const r = await proxyLive(undefined, ids.productpage);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ stage: 'config' });
    expect((r.body as J).error).toContain('--live-config');
    expect((await proxyDrift(rt.context(), undefined, ids.productpage)).status).toBe(404);
  });

  it('only allow-listed GETs reached an admin port; pods/…/proxy was never asked for', () => {
    const seen = admins.flatMap((a) => a.requests);
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) {
      expect(r.method).toBe('GET');
      if (r.url.startsWith('/debug/'))
        expect(r.url).toBe(`/debug/config_dump?proxyID=${ids.productpage}`); // istiod's 15014
      else expect(ENVOY_ADMIN_ALLOWED).toContain(r.url);
    }
    expect(fake.requests.filter((r) => /\/proxy(\/|$)/.test(r.path))).toEqual([]);
    for (const r of fake.requests.filter((q) => q.path.endsWith('/portforward')))
      expect(r.query.ports).toBe(r.path.includes('/namespaces/istio-system/') ? '15014' : '15000');
  });
});
