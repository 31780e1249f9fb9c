// The runtime with real file sources: the embedded demo mesh, and a watched directory whose change
// reaches SSE subscribers as "proxy X changed".
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeshEvent } from './api/events';
import { healthz } from './api/debug';
import { TYPE } from './envoy/typeUrls';
import { proxyResources } from './pipeline/proxyResources';
import { AdsTestClient, namesOf } from './xds/testing/adsTestClient';
import { createRuntimeForTest, DEMO_AMBIENT_REASON, demoMeshDir, type MeshscopeRuntime } from './runtime';
import { REPO_ROOT } from './testing/paths';

const running: MeshscopeRuntime[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const rt of running.splice(0)) await rt.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const start = async (config: Parameters<typeof createRuntimeForTest>[0]) => {
  const rt = createRuntimeForTest(config);
  running.push(rt);
  await rt.ready;
  return rt;
};

describe('runtime', () => {
  it('no config → the embedded demo mesh (examples/demo), without input errors', async () => {
    expect(demoMeshDir(REPO_ROOT)).toBe(join(REPO_ROOT, 'examples', 'demo'));
    const rt = await start({});
    expect(rt.mode).toBe('demo');
    const snap = rt.snapshot();
    expect(snap.errors).toEqual([]);
    // 2 storefront + 1 cart + 3 products + 2 ratings sidecars, 1 ingress gateway.
    expect(snap.proxies.filter((p) => p.type === 'sidecar')).toHaveLength(8);
    expect(snap.proxies.filter((p) => p.type === 'router').map((p) => p.namespace)).toEqual(['istio-system']);
    // orders (50-ambient.yaml): ambient pods (no proxy) and one waypoint; the demo turns the ambient profile on.
    expect(snap.proxies.filter((p) => p.type === 'waypoint').map((p) => p.namespace)).toEqual(['orders']);
    expect(new Set(snap.proxies.map((p) => p.namespace))).toEqual(new Set(['shop', 'catalog', 'istio-system', 'orders']));
    expect(rt.ambient()).toBe(DEMO_AMBIENT_REASON);
    expect([...(snap.ambient?.waypoints.keys() ?? [])]).toEqual(['orders/waypoint']);
    // payments, and the one istiod converts the GAMMA HTTPRoute orders/orders into (gateway conversion: name~port~host).
    expect(snap.virtualServices.map((v) => v.meta.name).sort()).toEqual([
      'orders~8080~orders.orders.svc.cluster.local',
      'payments',
      'products',
      'ratings',
      'storefront',
    ]);
    expect(snap.destinationRules.map((d) => d.meta.name).sort()).toEqual(['products', 'ratings']);
    expect(snap.gateways.map((g) => `${g.meta.namespace}/${g.meta.name}`)).toEqual(['shop/shop-gateway']);
  });

  it('a file change in a watched --config dir is pushed to subscribers with the proxies it touched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-rt-'));
    dirs.push(dir);
    cpSync(demoMeshDir(REPO_ROOT), dir, { recursive: true });
    const rt = await start({ config: [dir] });
    expect(rt.mode).toBe('files');
    const before = new Set(rt.snapshot().proxies.map((p) => p.id));
    const got = new Promise<MeshEvent>((resolve) => {
      const off = rt.subscribe((e) => {
        off();
        resolve(e);
      });
    });
    writeFileSync(
      join(dir, '50-reviews.yaml'),
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: reviews-v1, namespace: catalog}',
        'spec:',
        '  replicas: 1',
        '  selector: {matchLabels: {app: reviews}}',
        '  template:',
        '    metadata: {labels: {app: reviews, version: v1}}',
        '    spec: {containers: [{name: reviews, image: x, ports: [{containerPort: 9080}]}]}',
        '',
      ].join('\n'),
    );
    const e = await got;
    const added = rt
      .snapshot()
      .proxies.map((p) => p.id)
      .filter((id) => !before.has(id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^reviews-v1-.*\.catalog$/);
    expect(e.proxies).toContain(added[0]);
    expect(e.version).toBe(rt.snapshot().version);
  });

  it('a missing --config path is a located error in the snapshot, not a crash', async () => {
    const rt = await start({ config: ['/nonexistent/meshscope/dir'] });
    expect(rt.snapshot().errors.some((e) => (e.file ?? '').includes('/nonexistent/meshscope/dir'))).toBe(true);
  });
});

describe('runtime ADS wiring (real gRPC on loopback)', () => {
  it('builds the Sidecar scopes ahead of the first client and reports it in xds.warmup and healthz (scopeWarmup.ts)', async () => {
    vi.stubEnv('MESHSCOPE_XDS_WARMUP', '1');
    const rt = await start({ xdsPort: 0 });
    vi.unstubAllEnvs();
    for (let i = 0; i < 250; i++) {
      const x = rt.xds();
      if (x.state === 'listening' && x.warmup && x.warmup.state !== 'warming') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const xds = rt.xds();
    if (xds.state !== 'listening') throw new Error(`ADS is ${xds.state}`);
    const sidecarNamespaces = new Set(
      rt
        .snapshot()
        .proxies.filter((p) => p.type === 'sidecar')
        .map((p) => p.namespace),
    );
    // The demo mesh has no Sidecar with a workloadSelector nor sourceLabels routes: one scope per namespace of sidecars.
    expect(xds.warmup).toMatchObject({ state: 'done', version: rt.snapshot().version, scopes: sidecarNamespaces.size });
    // What /api/healthz answers (app/api/healthz/route.ts: healthz(rt.context())): ready, with the warm-up's state.
    expect(healthz(rt.context())).toMatchObject({
      status: 200,
      body: { status: 'ok', xds: { state: 'listening', warmup: { state: 'done' } } },
    });
  });
  it('serves a connecting sidecar the clusters of its proxy, matched by the POD.NS in its node id', async () => {
    const rt = await start({ xdsPort: 0 });
    for (let i = 0; i < 100 && rt.xds().state === 'starting'; i++) await new Promise((r) => setTimeout(r, 20));
    const xds = rt.xds();
    expect(xds.state).toBe('listening');
    if (xds.state !== 'listening') return;
    const snap = rt.snapshot();
    const proxy = snap.proxies.find((p) => p.labels.app === 'storefront')!;
    const client = new AdsTestClient(xds.port);
    try {
      const stream = client.sotw({
        id: `sidecar~${proxy.ips[0]}~${proxy.id}~${proxy.namespace}.svc.cluster.local`,
        metadata: { NAMESPACE: proxy.namespace },
      });
      const resp = await stream.request({ typeUrl: TYPE.cluster }, 5000);
      expect(resp.versionInfo).not.toBe('');
      // What goes on the wire is what config_dump shows: the same pipeline output.
      expect(namesOf(resp).sort()).toEqual(
        proxyResources(snap, proxy.id, rt.options)!
          .clusters.map((c) => c.name)
          .sort(),
      );
      stream.cancel();
    } finally {
      client.close();
    }
  });

  it('reports a port it cannot bind instead of failing', async () => {
    const first = await start({ xdsPort: 0 });
    for (let i = 0; i < 100 && first.xds().state === 'starting'; i++) await new Promise((r) => setTimeout(r, 20));
    const taken = first.xds();
    if (taken.state !== 'listening') throw new Error('first ADS server did not start');
    const second = await start({ xdsPort: taken.port });
    for (let i = 0; i < 100 && second.xds().state === 'starting'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(second.xds()).toMatchObject({ state: 'failing' });
    expect(second.snapshot().proxies.length).toBeGreaterThan(0);
  });

  it('ADS limits come from the environment (4 MiB request limit by default, like istiod ISTIO_GPRC_MAXRECVMSGSIZE)', async () => {
    expect((await start({})).ads.limits).toMatchObject({ maxRequestBytes: 4 * 1024 * 1024, maxResponseBytes: 4 * 1024 * 1024 });
    process.env.MESHSCOPE_XDS_MAX_RECV_MSG_SIZE = '1048576';
    process.env.MESHSCOPE_XDS_MAX_RESOURCE_NAMES = 'not a number';
    process.env.MESHSCOPE_XDS_SEND_TIMEOUT = '250';
    try {
      const rt = await start({});
      expect(rt.ads.limits).toMatchObject({ maxRequestBytes: 1048576, maxResourceNames: 50_000, writeTimeoutMs: 250 });
    } finally {
      delete process.env.MESHSCOPE_XDS_MAX_RECV_MSG_SIZE;
      delete process.env.MESHSCOPE_XDS_MAX_RESOURCE_NAMES;
      delete process.env.MESHSCOPE_XDS_SEND_TIMEOUT;
    }
  });
});
