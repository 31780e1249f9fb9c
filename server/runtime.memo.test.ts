// The runtime's per-snapshot memo and response cache: the overview's views (graph, analyze, Gateway API)
// and the proxy detail body are computed once per snapshot, reused by every request until the snapshot
// changes, and equal to a fresh computation; a new snapshot (a real file change) invalidates them.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeMesh } from './api/analyze';
import { gatewayApiStatus } from './api/gatewayApi';
import { meshGraph } from './api/graph';
import { proxyDetail } from './api/proxies';
import { buildMeshGraph } from './meshGraph/graph';
import { optionsOf } from './model/mesh';
import { createRuntimeForTest, demoMeshDir, type MeshscopeRuntime } from './runtime';
import { REPO_ROOT } from './testing/paths';

const running: MeshscopeRuntime[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const rt of running.splice(0)) await rt.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A runtime watching a copy of the demo mesh (real files, real watcher). */
async function watchedDemo(): Promise<{ rt: MeshscopeRuntime; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-memo-'));
  dirs.push(dir);
  cpSync(demoMeshDir(REPO_ROOT), dir, { recursive: true });
  const rt = createRuntimeForTest({ config: [dir] });
  running.push(rt);
  await rt.ready;
  return { rt, dir };
}

/** Adds a Service in namespace catalog and waits for the snapshot that has it. */
async function addService(rt: MeshscopeRuntime, dir: string, name: string): Promise<void> {
  const before = rt.snapshot();
  writeFileSync(
    join(dir, `90-${name}.yaml`),
    `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: catalog}\nspec: {selector: {app: ${name}}, ports: [{name: http, port: 9080}]}\n`,
  );
  for (let i = 0; i < 200 && rt.snapshot() === before; i++) await new Promise((r) => setTimeout(r, 25));
  expect(rt.snapshot()).not.toBe(before);
  expect(rt.snapshot().services.some((s) => s.name === name)).toBe(true);
}

describe('per-snapshot memo of the overview views', () => {
  it('two requests on one snapshot build the graph, findings and Gateway API status once; a new snapshot rebuilds them', async () => {
    const { rt, dir } = await watchedDemo();
    const snap = rt.snapshot();
    const g1 = meshGraph(rt.context()).body;
    const a1 = analyzeMesh(rt.context()).body;
    const s1 = gatewayApiStatus(rt.context()).body;
    const g2 = meshGraph(rt.context()).body;
    const a2 = analyzeMesh(rt.context()).body;
    const s2 = gatewayApiStatus(rt.context()).body;
    // Reused, not recomputed: the same objects, one build each.
    expect(g2).toBe(g1);
    expect(a2).toBe(a1);
    expect(s2).toBe(s1);
    expect(rt.memo.builds.get('graph')).toBe(1);
    expect(rt.memo.builds.get('analyze+lines')).toBe(1);
    expect(rt.memo.builds.get('gatewayApi')).toBe(1);
    // What is reused is what a fresh computation gives.
    expect(g1).toEqual(buildMeshGraph(snap, optionsOf(snap)));
    expect(a1).toEqual(analyzeMesh({ ...rt.context(), memo: undefined }).body);

    await addService(rt, dir, 'memo-added');
    const g3 = meshGraph(rt.context()).body;
    expect(rt.memo.builds.get('graph')).toBe(2);
    expect(g3.version).toBe(rt.snapshot().version);
    expect(g3.nodes.some((n) => n.kind === 'service' && n.label === 'memo-added')).toBe(true);
    expect(g1.nodes.some((n) => n.label === 'memo-added')).toBe(false);
    analyzeMesh(rt.context());
    expect(rt.memo.builds.get('analyze+lines')).toBe(2);
  });
});

describe('per-snapshot response cache (GET /api/proxies/ID)', () => {
  it('serialises a proxy detail once per snapshot: same bytes, equal to a fresh proxyDetail; a new snapshot re-serialises', async () => {
    const { rt, dir } = await watchedDemo();
    const id = rt.snapshot().proxies.find((p) => p.type === 'sidecar')!.id;
    const get = () => {
      const ctx = rt.context();
      const req = new Request(`http://127.0.0.1/api/proxies/${id}?tables=0`);
      return rt.responses.respond(req, ctx.snapshot, `proxy\u0000${id}`, () => proxyDetail(ctx, id, { tables: false }));
    };
    const r1 = await get();
    const t1 = await r1.text();
    const r2 = await get();
    const t2 = await r2.text();
    expect(r1.status).toBe(200);
    expect(r1.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(t2).toBe(t1);
    expect(rt.responses.stats.serialised).toBe(1);
    expect(t1).toBe(JSON.stringify(proxyDetail(rt.context(), id, { tables: false }).body));

    await addService(rt, dir, 'memo-other');
    const t3 = await (await get()).text();
    expect(rt.responses.stats.serialised).toBe(2);
    expect((JSON.parse(t3) as { version: number }).version).toBe(rt.snapshot().version);
    expect(t3).toBe(JSON.stringify(proxyDetail(rt.context(), id, { tables: false }).body));
  });

  it('a 404 is answered and not cached', async () => {
    const { rt } = await watchedDemo();
    const ctx = rt.context();
    const res = await rt.responses.respond(new Request('http://127.0.0.1/api/proxies/nope.x'), ctx.snapshot, 'proxy\u0000nope.x', () =>
      proxyDetail(ctx, 'nope.x'),
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('proxy "nope.x" not found');
    expect(rt.responses.stats.serialised).toBe(0);
  });
});
