// Transport-free handlers on Istio's Bookinfo manifests, loaded for real.
// Shapes follow istiod's debug endpoints (pilot/pkg/xds/debug.go: registryz → model.Service JSON,
// configz → crd.ConvertConfig objects, syncz → SyncStatus[], config_dump → 400 without proxyID).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { configz, healthz, inputErrors, registryz, syncz } from './debug';
import { debugConfigDump, listProxies, listProxyInfo, proxyDetail } from './proxies';
import type { ApiContext } from './types';

const r = loadPaths([bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-80-20.yaml')]);
const snapshot = buildSnapshot(r.inputs, { version: 3, extraErrors: r.errors });
const ctx: ApiContext = { snapshot, options: DEFAULT_OPTIONS };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('proxies', () => {
  it('CLI shape is exactly {id, type, namespace, labels, ips} (DESIGN.md §3)', () => {
    const infos = listProxyInfo(snapshot);
    expect(infos.length).toBe(6); // bookinfo.yaml: details, productpage, ratings, reviews v1/v2/v3 — one replica each
    for (const p of infos) expect(Object.keys(p).sort()).toEqual(['id', 'ips', 'labels', 'namespace', 'type']);
  });

  it('the API list adds resource counts per proxy', () => {
    const res = listProxies(ctx);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(3);
    expect(res.body.proxies.map((p) => p.id)).toEqual(snapshot.proxies.map((p) => p.id));
    for (const p of res.body.proxies) expect(Object.keys(p.counts ?? {}).sort()).toEqual(['clusters', 'endpoints', 'listeners', 'routes']);
  });

  it('proxy detail: 404 for an unknown proxy, tables + dump for a known one', () => {
    expect(proxyDetail(ctx, 'nope.default').status).toBe(404);
    const id = snapshot.proxies[0]!.id;
    const res = proxyDetail(ctx, id);
    expect(res.status).toBe(200);
    const body = res.body as Json;
    expect(body.proxy.id).toBe(id);
    expect(Object.keys(body.tables).sort()).toEqual(['clusters', 'endpoints', 'listeners', 'routes']);
    expect(body.configDump.configs).toHaveLength(4);
  });

  it('proxy detail without tables (what the proxy page asks for: it builds its rows from the dump)', () => {
    const id = snapshot.proxies[0]!.id;
    const full = proxyDetail(ctx, id).body as Json;
    const lean = proxyDetail(ctx, id, { tables: false }).body as Json;
    expect(lean.tables).toBeUndefined();
    expect(lean.configDump).toEqual(full.configDump);
    expect(JSON.stringify(lean).length).toBeLessThan(JSON.stringify(full).length);
  });

  it('proxy detail carries the route provenance: reviews-80-20 http[0] made the weighted reviews route', () => {
    // virtual-service-reviews-80-20.yaml: one http rule without match → one route (route.go
    // BuildHTTPRoutesForVirtualService) in vhost reviews…:9080 of route config 9080, on every sidecar that imports reviews.
    const id = snapshot.proxies.find((p) => p.labels.app === 'productpage')!.id;
    const body = proxyDetail(ctx, id).body as Json;
    expect(body.provenance).toEqual([
      {
        routeConfig: '9080',
        virtualHost: 'reviews.default.svc.cluster.local:9080',
        index: 0,
        source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[0]' },
      },
    ]);
  });
});

describe('/debug/config_dump', () => {
  it('400 without proxyID, with istiod wording', () => {
    const res = debugConfigDump(ctx, new URLSearchParams());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'You must provide a proxyID in the query string' });
  });

  it('404 for an unknown proxy, 400 for a bad type, the dump otherwise', () => {
    expect(debugConfigDump(ctx, new URLSearchParams({ proxyID: 'nope.default' })).status).toBe(404);
    const id = snapshot.proxies[0]!.id;
    expect(debugConfigDump(ctx, new URLSearchParams({ proxyID: id, type: 'secrets' })).status).toBe(400);
    const res = debugConfigDump(ctx, new URLSearchParams({ proxyID: id, type: 'clusters' }));
    expect(res.status).toBe(200);
    expect((res.body as Json).configs.map((c: Json) => c['@type'])).toEqual(['type.googleapis.com/envoy.admin.v3.ClustersConfigDump']);
  });
});

describe('istiod debug shapes', () => {
  it('registryz: model.Service JSON (Attributes, hostname, ports, Resolution as its iota)', () => {
    const all = registryz(ctx).body as Json[];
    const reviews = all.find((s) => s.hostname === 'reviews.default.svc.cluster.local');
    expect(reviews).toBeDefined();
    expect(reviews!.Attributes).toMatchObject({
      ServiceRegistry: 'Kubernetes',
      Name: 'reviews',
      Namespace: 'default',
      LabelSelectors: { app: 'reviews' },
    });
    expect(reviews!.Attributes.Labels).toEqual({ app: 'reviews', service: 'reviews' });
    // `name: http` → protocol HTTP (Istio protocol sniffing by port name prefix).
    expect(reviews!.ports).toEqual([{ name: 'http', port: 9080, protocol: 'HTTP' }]);
    // model.ClientSideLB is the first value of the Resolution enum (0).
    expect(reviews!.Resolution).toBe(0);
    expect(reviews!.MeshExternal).toBe(false);
  });

  it('configz: Istio configs back in Kubernetes shape', () => {
    const all = configz(ctx).body as Json[];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      kind: 'VirtualService',
      apiVersion: 'networking.istio.io/v1',
      metadata: { name: 'reviews', namespace: 'default' },
    });
    expect(all[0]!.spec.http[0].route.map((d: Json) => d.weight)).toEqual([80, 20]);
  });

  it('syncz: an empty array until xDS clients connect; the sync provider otherwise', () => {
    expect(syncz(ctx).body).toEqual([]);
    expect(syncz({ ...ctx, sync: () => [{ proxy: 'a.default', cluster_acked: 'n1' }] }).body).toEqual([
      { proxy: 'a.default', cluster_acked: 'n1' },
    ]);
  });

  it('errors and healthz report the snapshot', () => {
    expect(inputErrors(ctx).body).toMatchObject({ version: 3, errors: snapshot.errors });
    expect(healthz(ctx).body).toMatchObject({ status: 'ok', version: 3, proxies: 6 });
  });

  it('healthz is not ready (503) while ADS binds or when it could not bind its port (issue 14 item 13)', () => {
    expect(healthz({ ...ctx, xds: { state: 'listening', port: 15010 } }).status).toBe(200);
    expect(healthz({ ...ctx, xds: { state: 'starting' } })).toMatchObject({ status: 503, body: { status: 'starting' } });
    const taken = healthz({ ...ctx, xds: { state: 'failing', error: 'ADS server could not listen on 127.0.0.1:15010: EADDRINUSE' } });
    expect(taken).toMatchObject({ status: 503, body: { status: 'failing', xds: { state: 'failing' } } });
  });

  // istiod reports ready only once its first push context (every namespace's SidecarScope) is built: pilot/pkg/xds
  // discovery.go IsServerReady. meshscope's readiness waits for the scopes' warm-up while it starts (impact/scopeWarmup.ts).
  it('healthz is not ready while the Sidecar scopes warm up as the server starts, and only then', () => {
    const listening = (warmup: { state: 'warming' | 'done' | 'full' | 'stopped'; startup: boolean }) =>
      healthz({ ...ctx, xds: { state: 'listening', port: 15010, warmup: { version: 3, scopes: 2, ms: 500, ...warmup } } });
    expect(listening({ state: 'warming', startup: true })).toMatchObject({ status: 503, body: { status: 'warming' } });
    expect(listening({ state: 'warming', startup: false })).toMatchObject({ status: 200, body: { status: 'ok' } });
    for (const state of ['done', 'full', 'stopped'] as const) expect(listening({ state, startup: true }).status).toBe(200);
  });
});
