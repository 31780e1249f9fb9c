// Push figures (issue 12) against a real server process (bench/pushServer.ts: file source → store → ADS on
// loopback) and K real gRPC ADS clients (meshscope's raw test client), SotW or Delta:
//  - all K clients ACK their first full config (CDS, EDS, LDS, RDS), connecting at once;
//  - edit one VirtualService file → the last affected client (its namespace's sidecars) received and ACKed
//    the new RDS; how many unaffected clients were sent anything;
//  - a pod's IP changed in its file → EDS on the wire per client watching its service (p50/p99/last), and
//    whether anything but EDS was sent;
//  - server RSS idle, with the K clients, and after they left.
// Every client ACKs every response as it arrives. Times are from the file write (the one 100 ms debounce included).
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TYPE } from '../server/envoy/typeUrls';
import { quitChild, ServerChild } from './childProc';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { loadPaths } from '../server/sources/file/loadPaths';
import { REPO_ROOT } from '../server/testing/paths';
import { translateProxy } from '../server/translate/index';
import { AdsTestClient, type DeltaTestStream, namesOf, type SotwTestStream } from '../server/xds/testing/adsTestClient';
import { type MeshFiles, vsWithWeight, writeMeshFiles } from './meshFiles';
import { type ProfileSummary, startProfile } from './profile';
import { load1, median, percentile, type BenchRow } from './table';

export { ServerChild };

const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STREAMS_PER_CHANNEL = 100;
type Mode = 'sotw' | 'delta';

interface Received {
  typeUrl: string;
  at: number;
  names: string[];
}

/** One bench client: its proxy, what it received (after `mark`), and when its first full config was ACKed. */
export interface Client {
  proxy: string;
  namespace: string;
  received: Received[];
  synced?: number;
  close(): void;
}

export async function startServer(
  files: MeshFiles,
): Promise<{ server: ServerChild; port: number; proxies: Array<{ id: string; type: string; namespace: string }> }> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(REPO_ROOT, 'bench', 'pushServer.ts')], {
    env: { ...process.env, BENCH_DIR: files.dir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const server = new ServerChild(proc);
  const ready = await server.next((o) => o.event === 'ready');
  // As a readiness-gated rollout: the first wave comes after the server's scopes' warm-up (server/impact/scopeWarmup.ts).
  await server.next((o) => o.event === 'warm');
  return { server, port: ready.port as number, proxies: ready.proxies as Array<{ id: string; type: string; namespace: string }> };
}

const MiB = (b: unknown) => (b as number) / 2 ** 20;

interface Heap {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The C heap's resident size (glibc [heap]), when the server could read it. */
  mallocHeap: number;
  cacheEntries: number;
}
const heapOf = (m: Record<string, unknown>): Heap => ({
  heapUsed: MiB(m.heapUsed),
  external: MiB(m.external),
  arrayBuffers: MiB(m.arrayBuffers),
  mallocHeap: MiB(m.mallocHeap ?? Number.NaN),
  cacheEntries: (m.cache as { entries?: number } | undefined)?.entries ?? Number.NaN,
});
const heapText = (h: Heap) =>
  `V8 heap used ${h.heapUsed.toFixed(0)} MiB, external ${h.external.toFixed(0)} MiB (array buffers ${h.arrayBuffers.toFixed(0)}), C heap (glibc [heap]) resident ${h.mallocHeap.toFixed(0)} MiB, ${h.cacheEntries} cached translations`;

/** Route names per proxy (what an Envoy learns from its listeners), from an in-process translation. */
export function routeNamesOf(dir: string, ids: string[]): Map<string, string[]> {
  const loaded = loadPaths([dir]);
  const snap = buildSnapshot(loaded.inputs, { version: 1 });
  const out = new Map<string, string[]>();
  for (const id of new Set(ids)) {
    const p = snap.proxiesById.get(id);
    if (p)
      out.set(
        id,
        translateProxy(snap, p, DEFAULT_OPTIONS).routes.map((r) => r.name ?? ''),
      );
  }
  return out;
}

export function sotwClient(ch: AdsTestClient, proxy: { id: string; namespace: string }, routes: string[]): Promise<Client> {
  const s: SotwTestStream = ch.sotw({ id: `sidecar~10.0.0.1~${proxy.id}~${proxy.namespace}.svc.cluster.local` });
  const c: Client = { proxy: proxy.id, namespace: proxy.namespace, received: [], close: () => s.cancel() };
  const acked = new Set<string>();
  return new Promise((resolve, reject) => {
    const loop = async () => {
      for (;;) {
        let r: Awaited<ReturnType<SotwTestStream['next']>>;
        try {
          r = await s.next(600_000);
        } catch (e) {
          if (!c.synced) reject(e);
          return;
        }
        c.received.push({ typeUrl: r.typeUrl, at: wall(), names: [] });
        s.ack(r);
        if (!c.synced) {
          if (r.typeUrl === TYPE.cluster && !acked.has(TYPE.cluster))
            s.send({ typeUrl: TYPE.endpoint, resourceNames: namesOf(r).filter((n) => n.startsWith('outbound|')) });
          if (r.typeUrl === TYPE.listener && !acked.has(TYPE.listener)) s.send({ typeUrl: TYPE.route, resourceNames: routes });
          acked.add(r.typeUrl);
          if (acked.size === 4) {
            c.synced = wall();
            resolve(c);
          }
        }
      }
    };
    void loop();
    s.send({ typeUrl: TYPE.cluster });
    s.send({ typeUrl: TYPE.listener });
  });
}

function deltaClient(ch: AdsTestClient, proxy: { id: string; namespace: string }, routes: string[]): Promise<Client> {
  const s: DeltaTestStream = ch.delta({ id: `sidecar~10.0.0.1~${proxy.id}~${proxy.namespace}.svc.cluster.local` });
  const c: Client = { proxy: proxy.id, namespace: proxy.namespace, received: [], close: () => s.cancel() };
  const acked = new Set<string>();
  return new Promise((resolve, reject) => {
    const loop = async () => {
      for (;;) {
        let r: Awaited<ReturnType<DeltaTestStream['next']>>;
        try {
          r = await s.next(600_000);
        } catch (e) {
          if (!c.synced) reject(e);
          return;
        }
        c.received.push({ typeUrl: r.typeUrl, at: wall(), names: r.resources.map((x) => x.name) });
        s.ack(r);
        if (!c.synced) {
          if (r.typeUrl === TYPE.cluster && !acked.has(TYPE.cluster))
            s.send({ typeUrl: TYPE.endpoint, subscribe: r.resources.map((x) => x.name).filter((n) => n.startsWith('outbound|')) });
          if (r.typeUrl === TYPE.listener && !acked.has(TYPE.listener)) s.send({ typeUrl: TYPE.route, subscribe: routes });
          acked.add(r.typeUrl);
          if (acked.size === 4) {
            c.synced = wall();
            resolve(c);
          }
        }
      }
    };
    void loop();
    s.send({ typeUrl: TYPE.cluster });
    s.send({ typeUrl: TYPE.listener });
  });
}

export async function waitUntil(cond: () => boolean, timeoutMs: number, pollMs = 2): Promise<boolean> {
  const end = wall() + timeoutMs;
  while (!cond()) {
    if (wall() > end) return false;
    await sleep(pollMs);
  }
  return true;
}

export interface PushFigures {
  mode: Mode;
  k: number;
  services: number;
  firstConfigAllMs: number;
  firstConfigP50Ms: number;
  firstConfigP10Ms: number;
  /** When clients got their first response (p10, p50, p90): no lockstep = early clients served early. */
  firstResponseMs: number[];
  vsChangeLastAckMs: number[];
  vsAffected: number;
  vsUnaffectedSent: number;
  vsTypesSent: string[];
  edsP50Ms: number;
  edsP99Ms: number;
  edsLastMs: number;
  edsClients: number;
  edsNonEds: number;
  rssIdleMiB: number;
  rssWithMiB: number;
  rssAfterMiB: number;
  /** V8 heap and off-heap bytes, idle / with the clients / after they left (MiB), and the resource cache's entries. */
  heap: Heap[];
  /** Server's: vs, eds, connect; the bench process's own (its K clients): connectClients. */
  profiles: { vs?: ProfileSummary; eds?: ProfileSummary; connect?: ProfileSummary; connectClients?: ProfileSummary };
  /** CPU time of the bench process (the K clients) while they connected. */
  connectClientCpuMs: number;
  /** Server-side translations / CLA refreshes per phase (undefined: the server does not report them). */
  work: { connect?: Work; vs?: Work; eds?: Work };
}

interface Work {
  translations: number;
  endpointRefreshes: number;
  /** CPU time of the server process (user + system). */
  cpuMs: number;
}

async function work(server: ServerChild): Promise<Work | undefined> {
  const reply = await server.command('stats');
  const c = reply.cache as Work | undefined;
  return c ? { translations: c.translations, endpointRefreshes: c.endpointRefreshes, cpuMs: reply.cpuMs as number } : undefined;
}
const delta = (a?: Work, b?: Work): Work | undefined =>
  a && b
    ? {
        translations: b.translations - a.translations,
        endpointRefreshes: b.endpointRefreshes - a.endpointRefreshes,
        cpuMs: b.cpuMs - a.cpuMs,
      }
    : undefined;
const workText = (w?: Work) => (w ? `; server translated ${w.translations} proxies, refreshed CLAs of ${w.endpointRefreshes}` : '');
const cpuText = (f: PushFigures) =>
  f.work.connect
    ? `; CPU while connecting: server ${f.work.connect.cpuMs.toFixed(0)} ms, bench clients ${f.connectClientCpuMs.toFixed(0)} ms`
    : '';

/** One server process, K clients of `mode`: every push figure. */
export async function benchPush(mode: Mode, k: number, services: number, rounds = 3): Promise<PushFigures> {
  const files = writeMeshFiles(services, { namespaces: Math.max(1, Math.ceil(services / 10)) });
  const { server, port, proxies } = await startServer(files);
  const clients: Client[] = [];
  const channels: AdsTestClient[] = [];
  try {
    const sidecars = proxies.filter((p) => p.type === 'sidecar' && p.id !== 'svc-0-bench.ns-0');
    const chosen = Array.from({ length: k }, (_, i) => sidecars[i % sidecars.length]!);
    const routes = routeNamesOf(
      files.dir,
      chosen.map((p) => p.id),
    );
    const memIdle = await server.command('mem');
    const rssIdle = MiB(memIdle.rss);
    const w0 = await work(server);
    await server.command('prof-start');
    const keep = process.env.BENCH_PROFILE_DIR;
    const stopClientProfile = await startProfile(keep ? join(keep, `clients-${mode}-${k}.cpuprofile`) : undefined);
    const cpu0 = process.cpuUsage();
    const t0 = wall();
    const connecting: Promise<Client>[] = [];
    for (let i = 0; i < k; i++) {
      if (i % STREAMS_PER_CHANNEL === 0) channels.push(new AdsTestClient(port));
      const ch = channels[channels.length - 1]!;
      const p = chosen[i]!;
      connecting.push((mode === 'sotw' ? sotwClient : deltaClient)(ch, p, routes.get(p.id) ?? []));
    }
    clients.push(...(await Promise.all(connecting)));
    const syncTimes = clients.map((c) => (c.synced ?? Number.NaN) - t0);
    const firstResponse = clients.map((c) => (c.received[0]?.at ?? Number.NaN) - t0);
    const cpu1 = process.cpuUsage(cpu0);
    const connectClientProfile = await stopClientProfile();
    const connectProfile = (await server.command('prof-stop')).summary as ProfileSummary;
    const w1 = await work(server);
    await sleep(500);
    const memWith = await server.command('mem');
    const rssWith = MiB(memWith.rss);

    // VirtualService svc-0 (ns-0) edited: its namespace's sidecars (Sidecar egress ./*) are affected.
    const affected = clients.filter((c) => c.namespace === 'ns-0');
    const vsTimes: number[] = [];
    let unaffectedSent = 0;
    const types = new Set<string>();
    let vsProfile: ProfileSummary | undefined;
    let wVs0: Work | undefined;
    for (let r = 0; r < rounds; r++) {
      if (r === rounds - 1) wVs0 = await work(server);
      for (const c of clients) c.received.length = 0;
      await server.command('prof-start');
      const w0 = wall();
      writeFileSync(files.vsFile, stringify(vsWithWeight(files.vsObject, 80 - r * 10)));
      const ok = await waitUntil(() => affected.every((c) => c.received.some((x) => x.typeUrl === TYPE.route)), 120_000);
      const last = Math.max(...affected.map((c) => c.received.find((x) => x.typeUrl === TYPE.route)?.at ?? Number.NaN));
      vsTimes.push(ok ? last - w0 : Number.NaN);
      await sleep(400); // late pushes to anyone else show up here
      vsProfile = (await server.command('prof-stop')).summary as ProfileSummary;
      for (const c of clients) for (const x of c.received) types.add(x.typeUrl.slice(x.typeUrl.lastIndexOf('.') + 1));
      unaffectedSent = Math.max(unaffectedSent, clients.filter((c) => c.namespace !== 'ns-0' && c.received.length > 0).length);
    }

    const wVs1 = await work(server);
    // The bench pod's IP changes in its file: EDS for svc-0's clusters to every client that watches them.
    for (const c of clients) c.received.length = 0;
    await server.command('prof-start');
    const e0 = wall();
    writeFileSync(files.podFile, stringify(files.podObject('10.199.0.2')));
    const watchers = affected;
    await waitUntil(() => watchers.every((c) => c.received.some((x) => x.typeUrl === TYPE.endpoint)), 120_000);
    await sleep(400);
    const edsProfile = (await server.command('prof-stop')).summary as ProfileSummary;
    const wEds = await work(server);
    const eds = watchers.map((c) => (c.received.find((x) => x.typeUrl === TYPE.endpoint)?.at ?? Number.NaN) - e0);
    const nonEds = clients.reduce((n, c) => n + c.received.filter((x) => x.typeUrl !== TYPE.endpoint).length, 0);

    for (const c of clients) c.close();
    for (const ch of channels) ch.close();
    await sleep(2000);
    const memAfter = await server.command('mem');
    const rssAfter = MiB(memAfter.rss);
    return {
      mode,
      k,
      services,
      firstConfigAllMs: Math.max(...syncTimes),
      firstConfigP50Ms: median(syncTimes),
      firstConfigP10Ms: percentile(syncTimes, 10),
      firstResponseMs: [10, 50, 90].map((p) => percentile(firstResponse, p)),
      vsChangeLastAckMs: vsTimes,
      vsAffected: affected.length,
      vsUnaffectedSent: unaffectedSent,
      vsTypesSent: [...types].sort(),
      edsP50Ms: percentile(eds, 50),
      edsP99Ms: percentile(eds, 99),
      edsLastMs: Math.max(...eds),
      edsClients: watchers.length,
      edsNonEds: nonEds,
      rssIdleMiB: rssIdle,
      rssWithMiB: rssWith,
      rssAfterMiB: rssAfter,
      heap: [memIdle, memWith, memAfter].map(heapOf),
      profiles: { vs: vsProfile, eds: edsProfile, connect: connectProfile, connectClients: connectClientProfile },
      connectClientCpuMs: (cpu1.user + cpu1.system) / 1000,
      work: { connect: delta(w0, w1), vs: delta(wVs0, wVs1), eds: delta(wVs1, wEds) },
    };
  } finally {
    for (const c of clients) c.close();
    for (const ch of channels) ch.close();
    await quitChild(server.proc);
    rmSync(files.dir, { recursive: true, force: true });
  }
}

/** Idle server RSS with the N-service mesh loaded and no client. */
export async function benchIdle(services: number): Promise<number> {
  const files = writeMeshFiles(services);
  const { server } = await startServer(files);
  try {
    await sleep(1000);
    return MiB((await server.command('mem')).rss);
  } finally {
    server.proc.stdin!.write(`${JSON.stringify({ cmd: 'quit' })}\n`);
    await new Promise((r) => server.proc.once('exit', r));
    rmSync(files.dir, { recursive: true, force: true });
  }
}

/** PushFigures → table rows (goals of issue 12; K-specific goals only at K ≥ 1,000). */
export function pushRows(f: PushFigures): BenchRow[] {
  const size = `N=${f.services}, K=${f.k} ${f.mode === 'sotw' ? 'SotW' : 'Delta'}`;
  const big = f.k >= 1000;
  const load = load1();
  const row = (r: Omit<BenchRow, 'load' | 'size'>): BenchRow => ({ ...r, size, load });
  const perClientKb = ((f.rssWithMiB - f.rssIdleMiB) * 1024) / f.k;
  const vs = median(f.vsChangeLastAckMs);
  return [
    row({
      figure: 'all K clients ACK their first full config',
      value: f.firstConfigAllMs,
      unit: 'ms',
      ...(big ? { goal: 5000 } : {}),
      detail: `p10 ${f.firstConfigP10Ms.toFixed(0)} ms, p50 ${f.firstConfigP50Ms.toFixed(0)} ms; first response p10/p50/p90 ${f.firstResponseMs.map((x) => x.toFixed(0)).join('/')} ms; clients connect at once, each CDS+LDS then EDS+RDS${workText(f.work.connect)}${cpuText(f)}`,
      ...(big && f.firstConfigAllMs > 5000 && f.profiles.connect ? { profile: f.profiles.connect } : {}),
    }),
    row({
      figure: 'edit one VS file → last affected client ACKs',
      value: vs,
      unit: 'ms',
      ...(big ? { goal: 1000 } : {}),
      anchor: { value: 1000, text: 'istio "< 1 s in most cases"' },
      detail: `median of ${f.vsChangeLastAckMs.length} (${f.vsChangeLastAckMs.map((x) => x.toFixed(0)).join(', ')} ms); ${f.vsAffected} affected clients; unaffected clients sent anything: ${f.vsUnaffectedSent}; types sent: ${f.vsTypesSent.join(', ')}${workText(f.work.vs)} (last round)`,
      ...(vs > 1000 && f.profiles.vs ? { profile: f.profiles.vs } : {}),
    }),
    row({
      figure: 'pod IP change (file) → EDS on the wire, p99',
      value: f.edsP99Ms,
      unit: 'ms',
      ...(big ? { goal: 250 } : {}),
      anchor: { value: 100, text: 'istiod 100 ms floor' },
      detail: `p50 ${f.edsP50Ms.toFixed(0)} ms, last ${f.edsLastMs.toFixed(0)} ms over ${f.edsClients} watching clients; non-EDS responses: ${f.edsNonEds}${workText(f.work.eds)}`,
      ...(f.edsP99Ms > 250 && f.profiles.eds ? { profile: f.profiles.eds } : {}),
    }),
    row({
      figure: 'server RSS per connected client',
      value: perClientKb,
      unit: 'kB',
      goal: 250,
      detail: `RSS idle ${f.rssIdleMiB.toFixed(0)} MiB → ${f.rssWithMiB.toFixed(0)} MiB with clients → ${f.rssAfterMiB.toFixed(0)} MiB after they left`,
    }),
    row({
      figure: 'server RSS after clients leave, vs idle',
      value: (100 * (f.rssAfterMiB - f.rssIdleMiB)) / f.rssIdleMiB,
      unit: '%',
      goal: 10,
      detail: `idle: ${heapText(f.heap[0]!)}; with clients: ${heapText(f.heap[1]!)}; after: ${heapText(f.heap[2]!)}`,
    }),
  ];
}
