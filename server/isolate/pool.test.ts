// The CPU pool (issue 25 §2) on a real runtime: a real file source, the real ADS server on loopback with a
// real gRPC client, and real worker threads running the bundled dist/cli/cpuWorker.mjs. Checked by the
// order of events, never by wall-clock thresholds:
// - a sandbox evaluation past its budget is answered 422 {"error", "stage"}, its worker terminated and
//   replaced (the next request runs on a new worker and succeeds);
// - while a worker is busy with a hostile evaluation, a VirtualService edit reaches the ADS client and
//   healthz answers (both happen before the evaluation's answer);
// - a full queue is refused with 503 + Retry-After, stage `queue`;
// - answers equal the handlers run in this thread (the worker's snapshot, rebuilt from the store's
//   SnapshotSpec, is the same snapshot).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticMesh } from '../../bench/uiServe';
import { healthz } from '../api/debug';
import { evaluateSandbox } from '../api/sandbox';
import { simulateRequest } from '../api/simulate';
import { TYPE } from '../envoy/typeUrls';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { AdsTestClient, namesOf } from '../xds/testing/adsTestClient';
import type { PoolEvent } from './pool';

const SERVICES = 120;
let dir: string;
let rt: MeshscopeRuntime;
const events: Array<PoolEvent | { type: 'rds' | 'healthz'; status?: number }> = [];

/** A draft that changes every service's VirtualService: every proxy is in its blast radius and re-translated. */
function hostileDraft(): string {
  const docs = [];
  for (let i = 0; i < SERVICES; i++)
    docs.push(
      stringify({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: `svc-${i}`, namespace: `ns-${i % 2}` },
        spec: {
          hosts: [`svc-${i}`],
          http: [
            { match: [{ headers: { 'x-a': { exact: 'b'.repeat(200) } } }], route: [{ destination: { host: `svc-${i}`, subset: 'v2' } }] },
            { route: [{ destination: { host: `svc-${i}`, subset: 'v1' } }] },
          ],
        },
      }),
    );
  return docs.join('---\n');
}

const hostileBody = (proxy: string) => ({
  draft: hostileDraft(),
  requests: Array.from({ length: 1000 }, (_, i) => ({
    proxy,
    request: {
      mode: 'outbound',
      port: 8080,
      host: `svc-${i % SERVICES}.ns-${i % 2}:8080`,
      path: `/${'x/'.repeat(500)}`,
      headers: { 'x-a': 'b'.repeat(200) },
    },
  })),
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meshscope-pool-'));
  writeSyntheticMesh(SERVICES, { dir, mesh: { namespaces: 2 } });
  rt = createRuntimeForTest(
    { config: [dir], xdsPort: 0 },
    { log: () => undefined, debounceMs: 20, cpu: { workers: 1, queue: 1, budgetMs: 30_000, onEvent: (e) => events.push(e) } },
  );
  await rt.ready;
  await rt.xdsSettled;
}, 120_000);
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('CPU pool on the runtime', () => {
  it("answers what this thread's handlers answer (the worker rebuilds the same snapshot)", async () => {
    const proxy = rt.snapshot().proxies[0]!.id;
    const simBody = { proxyId: proxy, request: { mode: 'outbound', port: 8080, host: 'svc-3.ns-1:8080', path: '/p' } };
    const sim = await rt.cpu.run('simulate', simBody);
    expect(sim.status).toBe(200);
    expect(JSON.parse(sim.json)).toEqual(simulateRequest(rt.context(), simBody).body);
    const evalBody = { draft: hostileDraft().split('---\n')[0]!, requests: [{ proxy, request: simBody.request }] };
    const ev = await rt.cpu.run('evaluate', evalBody);
    expect(ev.status).toBe(200);
    const here = evaluateSandbox(rt.context(), evalBody).body as { stats: { ms: number } };
    const there = JSON.parse(ev.json) as { stats: { ms: number } };
    expect({ ...there, stats: { ...there.stats, ms: 0 } }).toEqual({ ...here, stats: { ...here.stats, ms: 0 } });
  }, 120_000);

  it('a busy worker holds up neither an ADS push nor healthz; a full queue is refused with 503', async () => {
    const proxy = rt.snapshot().proxies.find((p) => p.namespace === 'ns-0')!;
    const client = new AdsTestClient(Number((rt.xds() as { port: number }).port));
    const s = client.sotw({ id: `sidecar~${proxy.ips[0]}~${proxy.id}~ns-0.svc.cluster.local` });
    try {
      s.ack(await s.request({ typeUrl: TYPE.listener }, 30_000));
      const rds = await s.request({ typeUrl: TYPE.route, resourceNames: ['8080'] }, 30_000);
      s.ack(rds);
      expect(namesOf(rds)).toContain('8080');

      const from = events.length;
      const hostile = rt.cpu.run('evaluate', hostileBody(proxy.id));
      // Wait until the worker runs it (past its own start and snapshot stages).
      while (!events.slice(from).some((e) => e.type === 'stage' && e.stage === 'evaluate')) await new Promise((r) => setTimeout(r, 5));
      // One more task waits in the queue (its bound is 1), the next is refused.
      const queued = rt.cpu.run('simulate', { proxyId: proxy.id, request: { mode: 'outbound', port: 8080, host: 'svc-1.ns-1:8080' } });
      const refused = await rt.cpu.run('simulate', { proxyId: proxy.id, request: { mode: 'outbound', port: 8080 } });
      expect(refused.status).toBe(503);
      expect(refused.headers?.['retry-after']).toBe('1');
      expect(JSON.parse(refused.json)).toMatchObject({ stage: 'queue' });

      // A VirtualService edit in the watched directory → the client gets the new RDS.
      writeFileSync(
        join(dir, 'zz-edit.yaml'),
        stringify({
          apiVersion: 'networking.istio.io/v1',
          kind: 'VirtualService',
          metadata: { name: 'svc-0', namespace: 'ns-0' },
          spec: { hosts: ['svc-0'], http: [{ timeout: '7s', route: [{ destination: { host: 'svc-0', subset: 'v2' } }] }] },
        }),
      );
      const pushed = await s.next(60_000);
      events.push({ type: 'rds' });
      expect(pushed.typeUrl).toBe(TYPE.route);
      s.ack(pushed);
      events.push({ type: 'healthz', status: healthz(rt.context()).status });

      const answer = await hostile;
      expect((await queued).status).toBe(200);
      const order = events.slice(from).map((e) => e.type);
      // Both happened while the evaluation was still running: before its answer.
      expect(order.indexOf('rds')).toBeLessThan(order.indexOf('done'));
      expect(order.indexOf('healthz')).toBeLessThan(order.indexOf('done'));
      expect(events.find((e) => e.type === 'healthz')).toMatchObject({ status: 200 });
      expect([200, 422]).toContain(answer.status);
    } finally {
      s.cancel();
      client.close();
    }
  }, 180_000);

  it('past its budget: 422 {"error", "stage"}, the worker is recycled and the next task runs on a new one', async () => {
    const proxy = rt.snapshot().proxies[0]!.id;
    const pool = (await import('./runtimePool')).storePool(rt.store, process.cwd(), {
      workers: 1,
      onEvent: (e) => local.push(e),
    });
    const local: PoolEvent[] = [];
    try {
      const over = await pool.run('evaluate', hostileBody(proxy), { budgetMs: 50 });
      expect(over.status).toBe(422);
      expect(JSON.parse(over.json)).toEqual({ error: 'evaluate exceeded its time budget (50 ms)', stage: 'evaluate' });
      const next = await pool.run('simulate', { proxyId: proxy, request: { mode: 'outbound', port: 8080, host: 'svc-1.ns-1:8080' } });
      expect(next.status).toBe(200);
      const kinds = local.map((e) => (e.type === 'spawn' || e.type === 'recycle' ? `${e.type}:${e.worker}` : e.type));
      expect(kinds.filter((k) => k.startsWith('spawn') || k.startsWith('recycle'))).toEqual(['spawn:1', 'recycle:1', 'spawn:2']);
      expect(pool.stats()).toMatchObject({ overBudget: 1, recycled: 1, workers: 1 });
    } finally {
      await pool.close();
    }
  }, 180_000);
});
