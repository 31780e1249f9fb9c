// Hostile load (issue 25 §2): while clients loop hostile POST /api/sandbox/evaluate and POST /api/simulate at
// full speed (big drafts, pathological paths and headers, 1,000 request checks per evaluation), K real ADS
// clients (SotW, meshscope's raw test client) must still get a VirtualService push within 1 s and an endpoint
// push within 250 ms, and GET /api/healthz must answer within 100 ms. The server is bench/hostileServer.ts
// (the runtime with its CPU pool, behind node:http routing to the route adapters' handlers) in its own process.
// Times are from the file write (one 100 ms debounce included), as in bench/push.ts; each figure is taken first
// with no hostile client (what the machine gives at its load), then under the hostile load. Nothing here asserts.
//   BENCH_HOSTILE_LOOPS: concurrent hostile loops (default 8: half evaluations, half simulations)
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TYPE } from '../server/envoy/typeUrls';
import { REPO_ROOT } from '../server/testing/paths';
import { AdsTestClient } from '../server/xds/testing/adsTestClient';
import { vsWithWeight, writeMeshFiles } from './meshFiles';
import { type Client, routeNamesOf, ServerChild, sotwClient, waitUntil } from './push';
import { type BenchRow, load1, percentile } from './table';

const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 100 VirtualServices, each with routes on long header values and a nested-quantifier regex. */
function hostileDraft(services: number): string {
  const docs: string[] = [];
  for (let i = 0; i < Math.min(100, services); i++)
    docs.push(
      stringify({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: `svc-${i}`, namespace: `ns-${Math.floor(i / 10)}` },
        spec: {
          hosts: [`svc-${i}`],
          http: [
            { match: [{ uri: { regex: '/(a+)+b' } }], route: [{ destination: { host: `svc-${i}`, subset: 'v2' } }] },
            { match: [{ headers: { 'x-h': { regex: '(x+x+)+y' } } }], route: [{ destination: { host: `svc-${i}`, subset: 'v2' } }] },
            { route: [{ destination: { host: `svc-${i}`, subset: 'v1' } }] },
          ],
        },
      }),
    );
  return docs.join('---\n');
}

/** An evaluation body under the 1 MiB limit: the draft and 1,000 request checks with pathological paths and headers. */
function evaluateBody(services: number, proxy: string): string {
  const requests = Array.from({ length: 1000 }, (_, i) => ({
    proxy,
    request: {
      mode: 'outbound',
      port: 8080,
      host: `svc-${i % Math.min(100, services)}.ns-${Math.floor((i % Math.min(100, services)) / 10)}:8080`,
      path: `/${'a'.repeat(400)}`,
      headers: { 'x-h': `${'x'.repeat(200)}` },
    },
  }));
  return JSON.stringify({ draft: hostileDraft(services), requests });
}

/** A simulation with a 10,000-character path and 100 headers of 1 KiB. */
function simulateBody(proxy: string): string {
  const headers: Record<string, string> = {};
  for (let i = 0; i < 100; i++) headers[`x-h${i}`] = 'x'.repeat(1024);
  return JSON.stringify({
    proxyId: proxy,
    request: { mode: 'outbound', port: 8080, host: 'svc-1.ns-0:8080', path: `/${'a'.repeat(10_000)}`, headers },
  });
}

export interface HostileFigures {
  clients: number;
  services: number;
  vsMs: number[];
  edsMs: number[];
  healthzMs: number[];
  loops: number;
  /** The same figures before the hostile clients started. */
  quiet: { vsMs: number[]; edsMs: number[]; healthzMs: number[] };
  statuses: Record<string, number>;
  pool: unknown;
}

export async function benchHostile(
  k: number,
  services: number,
  loops = Number(process.env.BENCH_HOSTILE_LOOPS ?? 8),
  rounds = 3,
): Promise<HostileFigures> {
  const files = writeMeshFiles(services, { namespaces: Math.max(1, Math.ceil(services / 10)) });
  const proc = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'hostileServer.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, BENCH_DIR: files.dir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const server = new ServerChild(proc);
  const clients: Client[] = [];
  const channels: AdsTestClient[] = [];
  let hostile = true;
  const statuses: Record<string, number> = {};
  try {
    const ready = await server.next((o) => o.event === 'ready');
    const url = `http://127.0.0.1:${ready.http as number}`;
    const proxies = (ready.proxies as Array<{ id: string; type: string; namespace: string }>).filter(
      (p) => p.type === 'sidecar' && p.id !== 'svc-0-bench.ns-0',
    );
    const chosen = Array.from({ length: k }, (_, i) => proxies[i % proxies.length]!);
    const routes = routeNamesOf(
      files.dir,
      chosen.map((p) => p.id),
    );
    const connecting: Promise<Client>[] = [];
    for (let i = 0; i < k; i++) {
      if (i % 100 === 0) channels.push(new AdsTestClient(ready.ads as number));
      connecting.push(sotwClient(channels[channels.length - 1]!, chosen[i]!, routes.get(chosen[i]!.id) ?? []));
    }
    clients.push(...(await Promise.all(connecting)));

    const affected = clients.filter((c) => c.namespace === 'ns-0');
    let round = 0;
    /** VS rounds, then EDS rounds, while healthz is sampled every 20 ms. */
    const measure = async () => {
      const healthzMs: number[] = [];
      let sample = true;
      const sampling = (async () => {
        while (sample) {
          const t0 = performance.now();
          const res = await fetch(`${url}/api/healthz`);
          await res.arrayBuffer();
          healthzMs.push(performance.now() - t0);
          await sleep(20);
        }
      })();
      const vsMs: number[] = [];
      for (let r = 0; r < rounds; r++, round++) {
        for (const c of clients) c.received.length = 0;
        const w0 = wall();
        writeFileSync(files.vsFile, stringify(vsWithWeight(files.vsObject, 80 - (round % 6) * 10)));
        const ok = await waitUntil(() => affected.every((c) => c.received.some((x) => x.typeUrl === TYPE.route)), 60_000);
        vsMs.push(ok ? Math.max(...affected.map((c) => c.received.find((x) => x.typeUrl === TYPE.route)!.at)) - w0 : Number.NaN);
        await sleep(500);
      }
      const edsMs: number[] = [];
      for (let r = 0; r < rounds; r++, round++) {
        for (const c of clients) c.received.length = 0;
        const e0 = wall();
        writeFileSync(files.podFile, stringify(files.podObject(`10.199.0.${(round % 200) + 2}`)));
        await waitUntil(() => affected.every((c) => c.received.some((x) => x.typeUrl === TYPE.endpoint)), 60_000);
        for (const c of affected) edsMs.push((c.received.find((x) => x.typeUrl === TYPE.endpoint)?.at ?? Number.NaN) - e0);
        await sleep(500);
      }
      sample = false;
      await sampling;
      return { vsMs, edsMs, healthzMs };
    };
    // The same figures with no hostile client first: what this machine gives at its current load.
    const quiet = await measure();

    // The hostile clients: `loops` loops, half evaluations, half simulations, each request sent as soon as the last answered.
    const evalBody = evaluateBody(services, chosen[0]!.id);
    const simBody = simulateBody(chosen[0]!.id);
    const loop = async (path: string, body: string) => {
      while (hostile) {
        try {
          const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await res.arrayBuffer();
          const key = `${path.slice(5)} ${res.status}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        } catch {
          statuses[`${path.slice(5)} failed`] = (statuses[`${path.slice(5)} failed`] ?? 0) + 1;
        }
      }
    };
    const running = Array.from({ length: loops }, (_, i) =>
      i % 2 === 0 ? loop('/api/sandbox/evaluate', evalBody) : loop('/api/simulate', simBody),
    );
    await sleep(3000); // the hostile load in full swing (the pool's queue filling) before measuring
    const { vsMs, edsMs, healthzMs } = await measure();
    hostile = false;
    await Promise.all(running);
    const stats = server.command('stats');
    return { clients: k, services, loops, vsMs, edsMs, healthzMs, quiet, statuses, pool: (await stats).pool };
  } finally {
    hostile = false;
    for (const c of clients) c.close();
    for (const ch of channels) ch.close();
    proc.stdin?.write('quit\n');
    await Promise.race([new Promise((r) => proc.once('exit', r)), sleep(10_000)]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(files.dir, { recursive: true, force: true });
  }
}

export function hostileRows(f: HostileFigures): BenchRow[] {
  const size = `${f.clients} ADS clients, N=${f.services}`;
  const q = f.quiet;
  const quiet = (xs: number[], p: number) => `without hostile clients ${percentile(xs, p).toFixed(0)} ms`;
  const load = `${f.loops} hostile loops answered ${Object.entries(f.statuses)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ')}; pool ${JSON.stringify(f.pool)}`;
  return [
    {
      figure: 'hostile load: VS edit → last affected client has RDS',
      size,
      value: Math.max(...f.vsMs),
      unit: 'ms',
      goal: 1000,
      detail: `rounds ${f.vsMs.map((x) => x.toFixed(0)).join(', ')} ms (${quiet(q.vsMs, 100)}); ${load}`,
      load: load1(),
    },
    {
      figure: 'hostile load: pod IP change → EDS on the wire (p99)',
      size,
      value: percentile(f.edsMs, 99),
      unit: 'ms',
      goal: 250,
      detail: `p50 ${percentile(f.edsMs, 50).toFixed(0)} ms, last ${Math.max(...f.edsMs).toFixed(0)} ms over ${f.edsMs.length} client pushes (${quiet(q.edsMs, 99)})`,
      load: load1(),
    },
    {
      figure: 'hostile load: GET /api/healthz (p99)',
      size,
      value: percentile(f.healthzMs, 99),
      unit: 'ms',
      goal: 100,
      detail: `p50 ${percentile(f.healthzMs, 50).toFixed(1)} ms, max ${Math.max(...f.healthzMs).toFixed(0)} ms over ${f.healthzMs.length} requests (${quiet(q.healthzMs, 99)})`,
      load: load1(),
    },
  ];
}
