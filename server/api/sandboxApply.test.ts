// Sandbox apply (issue #9 §4) through the real runtime: the embedded demo mesh (files of examples/demo),
// and a cluster source against the loopback fake API server (server/sources/kube/testing).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { FakeApiServer } from '../sources/kube/testing/fakeApiServer';
import { kubeConfigFor } from '../sources/kube/testing/fixtures';
import { KubeApplier } from './apply/kube';
import { debugConfigDump } from './proxies';
import { applySandbox, resetSandbox } from './sandboxApply';

const productsSplit = (v1: number, v2: number) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: products
  namespace: catalog
spec:
  hosts:
    - products.catalog.svc.cluster.local
  http:
    - name: shift
      route:
        - destination: {host: products.catalog.svc.cluster.local, subset: v1}
          weight: ${v1}
        - destination: {host: products.catalog.svc.cluster.local, subset: v2}
          weight: ${v2}
      timeout: 3s
`;

type Json = Record<string, unknown>;
/** The products route's weighted clusters in a proxy's /debug/config_dump (cluster → weight). */
function productsWeights(rt: MeshscopeRuntime, proxy: string): Record<string, number> {
  const dump = debugConfigDump(rt.context(), new URLSearchParams({ proxyID: proxy, type: 'routes' })).body as Json;
  const configs = ((dump.configs as Json[])[0]?.dynamic_route_configs ?? []) as Json[];
  for (const c of configs)
    for (const vh of ((c.route_config as Json).virtual_hosts ?? []) as Json[]) {
      if (vh.name !== 'products.catalog.svc.cluster.local:9080') continue;
      const route = ((vh.routes as Json[])[0]?.route ?? {}) as Json;
      const wc = ((route.weighted_clusters as Json | undefined)?.clusters ?? []) as Json[];
      return Object.fromEntries(wc.map((x) => [String(x.name), Number(x.weight)]));
    }
  return {};
}
const C = (subset: string) => `outbound|9080|${subset}|products.catalog.svc.cluster.local`;

describe('apply on the demo mesh', () => {
  let rt: MeshscopeRuntime;
  let storefront: string;
  beforeAll(async () => {
    rt = createRuntimeForTest({}, { log: () => undefined });
    await rt.ready;
    storefront = rt.snapshot().proxies.find((p) => p.id.startsWith('storefront-'))!.id;
  });
  afterAll(async () => rt?.stop());

  it('is the demo source; 80/20 before anything is applied', () => {
    expect(rt.mode).toBe('demo');
    expect(rt.applyContext().applier.mode).toBe('demo');
    expect(productsWeights(rt, storefront)).toEqual({ [C('v1')]: 80, [C('v2')]: 20 });
  });

  it('needs the bearer token (401) and changes nothing without confirm: true', async () => {
    const ctx = rt.applyContext();
    expect((await applySandbox(ctx, null, { draft: productsSplit(50, 50), confirm: true })).status).toBe(401);
    expect((await applySandbox(ctx, 'Bearer wrong', { draft: productsSplit(50, 50), confirm: true })).status).toBe(401);
    const preview = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: productsSplit(50, 50) });
    expect(preview).toMatchObject({
      status: 200,
      body: { mode: 'demo', applied: false, items: [{ op: 'put', object: 'VirtualService catalog/products' }] },
    });
    expect(productsWeights(rt, storefront)).toEqual({ [C('v1')]: 80, [C('v2')]: 20 });
  });

  it('a draft with errors is refused with them (422), located', async () => {
    const ctx = rt.applyContext();
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, {
      draft: productsSplit(50, 50).replace('weight: 50', 'weight: lots'),
      confirm: true,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errors: [{ path: 'spec.http[0].route[0].weight', line: 13 }] });
  });

  it('apply 50/50 → /debug/config_dump follows; reset → 80/20 again', async () => {
    const ctx = rt.applyContext();
    const v0 = rt.snapshot().version;
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: productsSplit(50, 50), confirm: true });
    expect(res).toMatchObject({ status: 200, body: { applied: true } });
    expect(rt.snapshot().version).toBeGreaterThan(v0);
    expect(productsWeights(rt, storefront)).toEqual({ [C('v1')]: 50, [C('v2')]: 50 });
    expect((await resetSandbox(ctx, null)).status).toBe(401);
    expect((await resetSandbox(ctx, `Bearer ${ctx.token}`)).status).toBe(200);
    expect(productsWeights(rt, storefront)).toEqual({ [C('v1')]: 80, [C('v2')]: 20 });
  });

  it('deleting the VirtualService hides the demo object until reset', async () => {
    const ctx = rt.applyContext();
    const draft =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: products\n  namespace: catalog\n  annotations:\n    sandbox.meshscope.io/delete: "true"\n';
    expect((await applySandbox(ctx, `Bearer ${ctx.token}`, { draft, confirm: true })).status).toBe(200);
    expect(rt.snapshot().virtualServices.some((v) => v.meta.name === 'products')).toBe(false);
    await resetSandbox(ctx, `Bearer ${ctx.token}`);
    expect(rt.snapshot().virtualServices.some((v) => v.meta.name === 'products')).toBe(true);
  });
});

describe('apply on a cluster source (loopback fake API server)', () => {
  let fake: FakeApiServer;
  let dir: string;
  let kubeconfig: string;
  beforeAll(async () => {
    fake = new FakeApiServer();
    await fake.start();
    dir = mkdtempSync(join(tmpdir(), 'meshscope-apply-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeConfigFor(fake.url).exportConfig());
  });
  afterAll(async () => {
    await fake?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('without --allow-apply: refused with a clear message (403), even with the token', async () => {
    const rt = createRuntimeForTest({ kubeconfig }, { log: () => undefined });
    try {
      const ctx = rt.applyContext();
      expect(ctx.applier.mode).toBe('kube');
      const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: productsSplit(50, 50), confirm: true });
      expect(res.status).toBe(403);
      expect((res.body as { error: string }).error).toMatch(/--allow-apply/);
      expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  it('with --allow-apply but without the token: 401, nothing sent to the cluster', async () => {
    const rt = createRuntimeForTest({ kubeconfig, allowApply: true }, { log: () => undefined });
    try {
      const res = await applySandbox(rt.applyContext(), null, { draft: productsSplit(50, 50), confirm: true });
      expect(res.status).toBe(401);
      expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  it('with both: server-side dry run first (result shown, nothing stored), the real apply after confirm', async () => {
    const applier = new KubeApplier(() => kubeConfigFor(fake.url));
    const ctx = { applier, allowApply: true, token: 't0ken' };
    const preview = await applySandbox(ctx, 'Bearer t0ken', { draft: productsSplit(50, 50) });
    expect(preview.body).toMatchObject({
      applied: false,
      dryRun: { ok: true },
      items: [{ ok: true, message: 'server-side dry run passed' }],
    });
    const patches = () => fake.requests.filter((r) => r.method === 'PATCH');
    expect(patches().map((r) => [r.path, r.query.dryRun, r.query.fieldManager])).toEqual([
      ['/apis/networking.istio.io/v1/namespaces/catalog/virtualservices/products', 'All', 'meshscope'],
    ]);
    const stored = () => fetch(`${fake.url}/apis/networking.istio.io/v1/namespaces/catalog/virtualservices/products`).then((r) => r.status);
    expect(await stored()).toBe(404);

    const done = await applySandbox(ctx, 'Bearer t0ken', { draft: productsSplit(50, 50), confirm: true });
    expect(done.body).toMatchObject({ applied: true, dryRun: { ok: true } });
    // Dry run, then the real server-side apply.
    expect(
      patches()
        .slice(1)
        .map((r) => r.query.dryRun ?? 'real'),
    ).toEqual(['All', 'real']);
    expect(await stored()).toBe(200);
  });

  it('a dry run the cluster rejects stops the apply: its answer is shown, nothing real is sent', async () => {
    const applier = new KubeApplier(() => kubeConfigFor(fake.url));
    const before = fake.requests.length;
    fake.failNext(422, { path: /virtualservices\/products$/ });
    const out = await applySandbox({ applier, allowApply: true, token: 't' }, 'Bearer t', { draft: productsSplit(10, 90), confirm: true });
    expect(out.body).toMatchObject({ applied: false, dryRun: { ok: false }, message: expect.stringContaining('dry run failed') });
    expect((out.body as { items: { message: string }[] }).items[0]?.message).toContain('422');
    const sent = fake.requests.slice(before).filter((r) => r.method === 'PATCH');
    expect(sent.map((r) => r.query.dryRun)).toEqual(['All']);
  });
});
