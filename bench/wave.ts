// Issue 24 goal 2's two wave rows alone, for iterating on the per-client cost of a connect wave and a reconnect
// wave: the bench server (bench/pushServer.ts, 7 multi-document files, the allocator `meshscope serve` chooses) and
// K distinct-pod clients (bench/clientProc.ts: real ADS, CDS→EDS, LDS→RDS, every response ACKed), then
//   1. all K first configs ACKed (server CPU, client-process CPU, work counts)
//   2. every stream dropped server-side → all K in sync again (same figures)
// The full bench (bench/issue24.ts) prints these rows too, beside the VS-edit, EDS and RSS rows.
//   BENCH_I24_N / BENCH_I24_K (1000 / 1000), BENCH_MODES (sotw,delta), BENCH_SERVER_NODE_FLAGS (comma-separated),
//   BENCH_CLIENT_NODE_FLAGS (the client process's, e.g. --cpu-prof,--cpu-prof-dir=/tmp/p),
//   BENCH_STALL_MS (the server's stall guard), BENCH_WAVE_PROFILE=1 (profile the server: off by default, the profiler
//   costs the server 5–13 % of its CPU in a first wave, ~35 % in a reconnect), BENCH_PROFILE_DIR (raw profiles),
//   BENCH_WAVE_ECHO=1 (the server's non-protocol stdout, e.g. BENCH_SERVER_NODE_FLAGS=--trace-gc, echoed to stderr
//   between '--- phase start' / '--- phase end' marks), BENCH_WAVE_GAP_MS (a quiet time between the two waves),
//   BENCH_WAVE_TIDS=1 (threads named only `node`, i.e. V8's platform workers and libuv's pool, one by one),
//   BENCH_WAVE_WARM_WAIT=0 (start the first wave at once instead of after the server's scopes' warm-up)
// Each row prints the server's CPU with its system time, its main thread's, its CPU by thread name, its minor page
// faults and its GCs by kind (count, pause ms), all read before the profiler stops.
// Run: `node --import tsx bench/wave.ts`. Not a test: nothing asserts a time.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chooseAllocator } from '../server/cli/allocator';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { REPO_ROOT } from '../server/testing/paths';
import { translateProxy } from '../server/translate/index';
import { quitChild } from './childProc';
import type { Mode } from './issueClients';
import { type IssueMesh, issueMesh, KINDS, writeIssueMesh } from './issueMesh';
import { formatSummary, type ProfileSummary } from './profile';
import { type Traffic, trafficText } from './clientTraffic';
import { CLIENT_BASE_FLAGS, CLIENT_FLAGS, SERVE_FLAGS, SERVER_FLAGS } from './issue24Env';

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);
const N = Number(process.env.BENCH_I24_N ?? 1000);
const K = Number(process.env.BENCH_I24_K ?? 1000);
const modes = list(process.env.BENCH_MODES, 'sotw,delta') as Mode[];
const PROFILE = process.env.BENCH_WAVE_PROFILE === '1';
const ECHO = process.env.BENCH_WAVE_ECHO === '1';
const GAP_MS = Number(process.env.BENCH_WAVE_GAP_MS ?? 0);
const BY_TID = process.env.BENCH_WAVE_TIDS === '1';
const wall = () => performance.timeOrigin + performance.now();
const load = () => loadavg()[0]!.toFixed(2);
const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** utime + stime (or one of them) of a process, or of one of its threads (/proc/PID/[task/TID/]stat fields 14 and 15). */
function procCpuMs(pid: number, which: 'both' | 'sys' = 'both', tid?: number): number {
  const s = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return ((which === 'sys' ? 0 : Number(f[11])) + Number(f[12])) * TICK_MS;
}

/** CPU ms per thread name (/proc/PID/task/TID/comm) of a process: where its time outside the main thread goes. */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name =
        tid === String(pid)
          ? 'main'
          : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8')
              .trim()
              .replace(/[0-9]+$/, 'N');
      const key = BY_TID && name === 'node' ? `node/${tid}` : name;
      out.set(key, (out.get(key) ?? 0) + procCpuMs(pid, 'both', Number(tid)));
    } catch {
      // the thread ended
    }
  }
  return out;
}
const threadText = (b: Map<string, number>, a: Map<string, number>): string =>
  [...b]
    .map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= 10)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)}`)
    .join(', ');

/** A child speaking one JSON line per message (pushServer.ts, clientProc.ts). */
class Child {
  private waiters: Array<(o: Record<string, unknown>) => void> = [];
  private seen: Array<Record<string, unknown>> = [];
  constructor(readonly proc: ChildProcess) {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(l) as Record<string, unknown>;
      } catch {
        // Not a protocol line (e.g. the server's --trace-gc output): echoed when BENCH_WAVE_ECHO=1.
        if (ECHO) console.error(`  | ${l}`);
        return;
      }
      this.seen.push(o);
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f(o);
    });
  }
  next(pred: (o: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const hit = this.seen.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve) => {
      const wait = (o: Record<string, unknown>) => (pred(o) ? resolve(o) : this.waiters.push(wait));
      this.waiters.push(wait);
    });
  }
  command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    this.seen = [];
    const p = this.next((o) => o.reply === cmd);
    this.proc.stdin!.write(`${JSON.stringify({ cmd, ...args })}\n`);
    return p;
  }
  quit(): Promise<void> {
    return quitChild(this.proc);
  }
}

/** Route names per namespace (as bench/issue24.ts: a namespace's pods share its Sidecar, so its route names). */
function routeNames(mesh: IssueMesh): Map<string, string[]> {
  const inputs = KINDS.flatMap((k) => mesh.byKind[k]).map((object, doc) => ({ object, origin: { source: 'demo' as const, doc } }));
  const snap = buildSnapshot(inputs, { version: 1 });
  const out = new Map<string, string[]>();
  for (const p of snap.proxies)
    if (p.type === 'sidecar' && !out.has(p.namespace))
      out.set(
        p.namespace,
        translateProxy(snap, p, DEFAULT_OPTIONS).routes.map((r) => r.name ?? ''),
      );
  return out;
}

/** K distinct sidecar pods round-robin over the namespaces, svc-0's excluded (as bench/issue24.ts chooses them). */
function chooseClients(proxies: Array<{ id: string; type: string; namespace: string }>, k: number) {
  const byNs = new Map<string, Array<{ id: string; namespace: string }>>();
  for (const p of proxies) {
    if (p.type !== 'sidecar' || p.id.startsWith('svc-0-')) continue;
    byNs.set(p.namespace, [...(byNs.get(p.namespace) ?? []), { id: p.id, namespace: p.namespace }]);
  }
  const lists = [...byNs.values()];
  const out: Array<{ id: string; namespace: string }> = [];
  for (let i = 0; out.length < k && lists.some((l) => l.length > i); i++)
    for (const l of lists) if (out.length < k && l[i]) out.push(l[i]!);
  return out;
}

type Gcs = Record<string, { n: number; ms: number }>;
/** GCs in a phase by kind: `kind n (ms)`. */
function gcText(a: Gcs, b: Gcs): string {
  const parts: string[] = [];
  for (const k of Object.keys(b)) {
    const n = b[k]!.n - (a[k]?.n ?? 0);
    if (n > 0) parts.push(`${k} ${n} (${(b[k]!.ms - (a[k]?.ms ?? 0)).toFixed(0)} ms)`);
  }
  return parts.join(', ') || 'none';
}

interface Phase {
  wallMs: number;
  serverCpuMs: number;
  /** Of it, system time and the main thread's; minor page faults; GCs by kind. */
  serverSysMs: number;
  serverMainMs: number;
  serverFaults: number;
  serverGc: string;
  clientCpuMs: number;
  /** Of it, system time and the main thread's (the rest: GC helper threads, libuv, the tsx loader's thread). */
  clientSysMs: number;
  clientMainMs: number;
  /** The client process's CPU by thread name, s (main, V8 workers, libuv…). */
  clientThreads: string;
  /** The server process's CPU by thread name, s. */
  serverThreads: string;
  translations: number;
  scopeShared: number;
  retries: number;
  load: string;
  /** What the clients received and how much of it was checked by a full decode (bench/clientProc.ts). */
  traffic?: Traffic;
  profile?: ProfileSummary;
}

const WARM_WAIT = process.env.BENCH_WAVE_WARM_WAIT !== '0';

async function run(dir: string, mode: Mode, routes: Map<string, string[]>): Promise<{ first: Phase; again: Phase }> {
  const allocator = chooseAllocator({ env: process.env });
  const server = new Child(
    spawn(
      process.execPath,
      ['--expose-gc', ...SERVE_FLAGS, ...SERVER_FLAGS, '--import', 'tsx', join(REPO_ROOT, 'bench', 'pushServer.ts')],
      {
        env: { ...process.env, BENCH_DIR: dir, ...allocator.env },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_MODE: mode };
  delete env.LD_PRELOAD;
  const clients = new Child(
    spawn(process.execPath, [...CLIENT_BASE_FLAGS, ...CLIENT_FLAGS, '--import', 'tsx', join(REPO_ROOT, 'bench', 'clientProc.ts')], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  try {
    const ready = await server.next((o) => o.event === 'ready');
    const port = ready.port as number;
    const chosen = chooseClients(ready.proxies as Array<{ id: string; type: string; namespace: string }>, K);
    await clients.command('init', { clients: chosen.map((c) => ({ ...c, routes: routes.get(c.namespace) ?? [] })) });
    // The server's scopes' warm-up (server/impact/scopeWarmup.ts; MESHSCOPE_XDS_WARMUP=0: off) ends before the wave,
    // as a readiness-gated rollout has it; BENCH_WAVE_WARM_WAIT=0: the wave starts at once, beside it (then the first
    // wave's server CPU includes the warm-up's).
    const warmLine = (warm: Record<string, unknown>) =>
      console.log(
        `${mode} warm-up:      ${String(warm.state)}, ${Number(warm.scopes)} scopes in ${Number(warm.ms).toFixed(0)} ms, server CPU from ready ${Number(warm.cpuMs).toFixed(0)} ms${WARM_WAIT ? '' : ' (not waited for)'}`,
      );
    if (WARM_WAIT) warmLine(await server.next((o) => o.event === 'warm'));
    else void server.next((o) => o.event === 'warm').then(warmLine);
    const phase = async (start: () => Promise<number>): Promise<Phase> => {
      const s0 = await server.command('stats');
      const sm0 = procCpuMs(server.proc.pid!, 'both', server.proc.pid!);
      const c0 = procCpuMs(clients.proc.pid!);
      const cs0 = procCpuMs(clients.proc.pid!, 'sys');
      const cm0 = procCpuMs(clients.proc.pid!, 'both', clients.proc.pid!);
      const ct0 = threadCpuMs(clients.proc.pid!);
      const st0 = threadCpuMs(server.proc.pid!);
      if (PROFILE) await server.command('prof-start');
      if (ECHO) console.error('  | --- phase start');
      const t0 = await start();
      const r = await clients.command('connect', { port });
      const done = Math.max(...(r.synced as number[]));
      if (ECHO) console.error('  | --- phase end');
      // The server's figures are read before the profiler stops: its stop (serialising the profile) is ~0.1-0.2 s of
      // the server's CPU that is no part of the wave.
      const s1 = await server.command('stats');
      const profile = PROFILE ? ((await server.command('prof-stop')).summary as ProfileSummary) : undefined;
      const cache = (s: Record<string, unknown>) => s.cache as { translations: number; scopeShared?: number };
      return {
        wallMs: done - t0,
        serverCpuMs: (s1.cpuMs as number) - (s0.cpuMs as number),
        serverSysMs: (s1.sysMs as number) - (s0.sysMs as number),
        serverMainMs: procCpuMs(server.proc.pid!, 'both', server.proc.pid!) - sm0,
        serverFaults: (s1.minorFaults as number) - (s0.minorFaults as number),
        serverGc: gcText(s0.gc as Gcs, s1.gc as Gcs),
        clientCpuMs: procCpuMs(clients.proc.pid!) - c0,
        clientSysMs: procCpuMs(clients.proc.pid!, 'sys') - cs0,
        clientMainMs: procCpuMs(clients.proc.pid!, 'both', clients.proc.pid!) - cm0,
        clientThreads: threadText(threadCpuMs(clients.proc.pid!), ct0),
        serverThreads: threadText(threadCpuMs(server.proc.pid!), st0),
        translations: cache(s1).translations - cache(s0).translations,
        scopeShared: (cache(s1).scopeShared ?? 0) - (cache(s0).scopeShared ?? 0),
        retries: r.retries as number,
        load: load(),
        ...(r.traffic ? { traffic: r.traffic as Traffic } : {}),
        ...(profile ? { profile } : {}),
      };
    };
    const first = await phase(async () => wall());
    // BENCH_WAVE_GAP_MS: a quiet time before the drop, as bench/issue24.ts has (VS edits, EDS, RSS samples, ~15 s):
    // long enough for the allocator's decay to return the first wave's freed pages.
    if (GAP_MS > 0) await new Promise((r) => setTimeout(r, GAP_MS));
    const again = await phase(async () => {
      const drop = await server.command('drop');
      await clients.command('dropped', { timeoutMs: 30_000 });
      return drop.at as number;
    });
    return { first, again };
  } finally {
    await clients.quit();
    await server.quit();
  }
}

const text = (p: Phase) =>
  `${(p.wallMs / 1000).toFixed(2)} s; server CPU ${(p.serverCpuMs / 1000).toFixed(2)} s (${(p.serverCpuMs / K).toFixed(2)} ms/client; ` +
  `system ${(p.serverSysMs / 1000).toFixed(2)} s; main thread ${(p.serverMainMs / 1000).toFixed(2)} s; by thread: ${p.serverThreads}; ${p.serverFaults} minor faults; GC ${p.serverGc}); ` +
  `client process CPU ${(p.clientCpuMs / 1000).toFixed(2)} s (system ${(p.clientSysMs / 1000).toFixed(2)} s; main thread ${(p.clientMainMs / 1000).toFixed(2)} s; by thread: ${p.clientThreads}); ` +
  `${p.translations} translations, ${p.scopeShared} inbound-only; ` +
  `${p.retries} retries; load ${p.load}${p.traffic ? `\n    ${trafficText(p.traffic)}` : ''}${p.profile ? `\n    profile: ${formatSummary(p.profile)}` : ''}`;

const mesh = issueMesh(N);
const routes = routeNames(mesh);
const d = writeIssueMesh(mesh, 'multidoc');
try {
  for (const mode of modes) {
    console.error(`wave: ${mode} N=${N} K=${K}${SERVER_FLAGS.length ? ` ${SERVER_FLAGS.join(' ')}` : ''} (load ${load()})`);
    const r = await run(d.dir, mode, routes);
    console.log(`${mode} first configs: ${text(r.first)}`);
    console.log(`${mode} reconnect:     ${text(r.again)}`);
  }
} finally {
  rmSync(d.dir, { recursive: true, force: true });
}
