// One push run of the issue-24 bench: a bench server on one shape, K distinct-pod clients in one mode; first
// configs, VirtualService edit, pod IP change → EDS, reconnect after a server-side drop, RSS.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { TYPE } from '../server/envoy/typeUrls';
import { REPO_ROOT } from '../server/testing/paths';
import type { Traffic } from './clientTraffic';
import { type Mode, wall } from './issueClients';
import type { IssueMesh, Shape } from './issueMesh';
import type { ProfileSummary } from './profile';
import { median, percentile } from './table';
import { sleep, K, RELEASE_GRACE_MS, SERVER_FLAGS, SERVE_FLAGS, CLIENT_PROCS, MiB, allocator } from './issue24Env';
import { ServerChild, type Work, work, minus, ClientProcs } from './issue24Procs';
import { inputFor, chooseClients } from './issue24Input';

export interface PushFigures {
  shape: Shape;
  mode: Mode;
  firstAll: number;
  firstP50: number;
  connect: Work;
  /** The server's scopes' warm-up before the wave (server/impact/scopeWarmup.ts): its end state, scopes built, wall and CPU from `ready`. */
  warmup: { state: string; scopes: number; ms: number; cpuMs: number };
  vs: number[];
  vsAffected: number;
  vsOthersSent: number;
  vsWork: Work;
  vsEventMs: number;
  /** When the xDS plane's push planning and the live event's diff were done (after the store's event). */
  vsLiveMs: number;
  edsEventMs: number;
  /** How long the bench's write of the Pod file took (the row's clock starts when it starts). */
  edsWriteMs: number;
  edsLiveMs: number;
  edsP50: number;
  edsP99: number;
  edsClients: number;
  edsNonEds: number;
  edsAll: boolean | undefined;
  edsWork: Work;
  reconnect: number;
  reconnectWork: Work;
  /** Streams that ended before they were in sync and were opened again. */
  connectRetries: number;
  reconnectRetries: number;
  /** What the clients received in each wave (and how much of it was decoded in full to check the wire reading). */
  connectTraffic: Traffic | undefined;
  reconnectTraffic: Traffic | undefined;
  rss: { idle: number; with: number; after: number; later: number };
  /** The server's `mem` replies: V8 heap, external, glibc's [heap], cached translations. */
  mem: Record<'idle' | 'with' | 'after' | 'later', Record<string, unknown>>;
  profiles: { connect?: ProfileSummary; vs?: ProfileSummary; eds?: ProfileSummary; reconnect?: ProfileSummary };
}

/** The phases of a push run, in order; each row's profile is of one. */
export type PushPhase = 'connect' | 'vs' | 'eds' | 'reconnect';

/**
 * One push run's figures, measured with no profiler attached: V8's sampling profiler (500 µs) cost the server
 * 0.3–0.6 s of CPU in an N = 1,000 connect wave and 0.8 s (35 %) in a reconnect wave (docs/perf/issue24.md, session
 * 14), so a figure measured under it is not the server's.
 */
export async function benchPushShape(mesh: IssueMesh, shape: Shape, mode: Mode, routes: Map<string, string[]>): Promise<PushFigures> {
  const f = await runPush(mesh, shape, mode, routes, { profile: new Set(), profiles: {} });
  if (!f) throw new Error('push run ended early');
  return f;
}

/**
 * A second run of the same push, the server profiled during `phases` only (the rows that missed their goal in the
 * measured run), ended after the last of them: the profiles for the bench notes, never the figures.
 */
export async function profilePushShape(
  mesh: IssueMesh,
  shape: Shape,
  mode: Mode,
  routes: Map<string, string[]>,
  phases: readonly PushPhase[],
): Promise<PushFigures['profiles']> {
  const order: PushPhase[] = ['connect', 'vs', 'eds', 'reconnect'];
  const until = order.filter((p) => phases.includes(p)).at(-1);
  const profiles: PushFigures['profiles'] = {};
  if (until) await runPush(mesh, shape, mode, routes, { profile: new Set(phases), profiles, until });
  return profiles;
}

interface RunOptions {
  /** Phases run under the server's profiler. */
  profile: ReadonlySet<PushPhase>;
  /** Where their summaries go. */
  profiles: PushFigures['profiles'];
  /** The run ends after this phase (returning nothing). */
  until?: PushPhase;
}

async function runPush(
  mesh: IssueMesh,
  shape: Shape,
  mode: Mode,
  routes: Map<string, string[]>,
  opts: RunOptions,
): Promise<PushFigures | undefined> {
  const input = await inputFor(mesh, shape);
  const proc = spawn(
    process.execPath,
    ['--expose-gc', ...SERVE_FLAGS, ...SERVER_FLAGS, '--import', 'tsx', join(REPO_ROOT, 'bench', 'pushServer.ts')],
    {
      env: { ...process.env, ...input.env, ...allocator.env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const server = new ServerChild(proc);
  const profStart = async (p: PushPhase) => {
    if (opts.profile.has(p)) await server.command('prof-start');
  };
  const profStop = async (p: PushPhase) => {
    if (opts.profile.has(p)) opts.profiles[p] = (await server.command('prof-stop')).summary as ProfileSummary;
  };
  let clients: ClientProcs | undefined;
  try {
    const ready = await server.next((o) => o.event === 'ready');
    const port = ready.port as number;
    const chosen = chooseClients(ready.proxies as Array<{ id: string; type: string; namespace: string }>, K);
    clients = await ClientProcs.start(
      chosen.map((p) => ({ ...p, routes: routes.get(p.namespace) ?? [] })),
      mode,
      CLIENT_PROCS,
    );
    // The server's scopes' warm-up (server/impact/scopeWarmup.ts) has ended before the wave, as a readiness-gated
    // rollout would have it; its time and CPU are a row of their own.
    const warm = await server.next((o) => o.event === 'warm');
    const idleMem = await server.command('mem');
    const idle = MiB(idleMem.rss);
    const w0 = await work(server);
    await profStart('connect');
    const t0 = wall();
    const first = await clients.connect(port);
    // Each row's work is read before the profiler stops (its stop, serialising the profile, is no part of the row).
    const w1 = await work(server);
    await profStop('connect');
    if (opts.until === 'connect') return undefined;
    const syncs = first.synced.map((x) => x - t0);
    const connectRetries = first.retries;
    await sleep(500);
    const withMem = await server.command('mem');
    const withClients = MiB(withMem.rss);

    // VirtualService svc-0 (ns-0): the ns-0 sidecars (Sidecar egress ./*) are affected.
    const vsAffected = chosen.filter((c) => c.namespace === 'ns-0').length;
    const vs: number[] = [];
    let vsOthersSent = 0;
    let vsWork = minus(w1, w1);
    let vsEventMs = Number.NaN;
    let vsLiveMs = Number.NaN;
    for (let r = 0; r < 3; r++) {
      const wa = await work(server);
      await clients.clear();
      const events = server.events.length;
      await profStart('vs');
      const write = input.editVs(70 - r * 10);
      const e0 = wall();
      write();
      const at = await clients.wait(TYPE.route, 'ns-0');
      vs.push(Math.max(...at) - e0);
      await sleep(400);
      const wv = await work(server);
      await profStop('vs');
      const ev = server.events.slice(events).find((o) => o.event === 'snapshot');
      vsEventMs = ev ? (ev.at as number) - e0 : Number.NaN;
      vsLiveMs = ev ? (ev.liveAt as number) - e0 : Number.NaN;
      vsOthersSent = Math.max(vsOthersSent, (await clients.received('ns-0', TYPE.route)).others);
      vsWork = minus(wv, wa);
    }
    if (opts.until === 'vs') return undefined;

    // svc-0's v1 pod moves to a new IP: EDS to the clients that watch svc-0 (ns-0's sidecars).
    const wb = await work(server);
    await clients.clear();
    const events = server.events.length;
    await profStart('eds');
    const write = input.editPod(1);
    const e0 = wall();
    write();
    // The bench's own write of the file (the 5× Pod export is 12 MB) is inside the row's clock: it is the edit.
    const edsWriteMs = wall() - e0;
    const edsAt = await clients.wait(TYPE.endpoint, 'ns-0');
    await sleep(400);
    const edsWork = minus(await work(server), wb);
    await profStop('eds');
    const eds = edsAt.map((x) => x - e0);
    const nonEds = (await clients.received('ns-0', TYPE.endpoint)).notOfType;
    const edsEvent = server.events.slice(events).find((o) => o.event === 'snapshot');
    if (opts.until === 'eds') return undefined;

    // Server-side drop of every stream; every client connects again (fresh channels).
    const wc = await work(server);
    await profStart('reconnect');
    const drop = await server.command('drop');
    await clients.dropped(30_000);
    const again = await clients.connect(port);
    const reconnect = Math.max(...again.synced) - (drop.at as number);
    const reconnectRetries = again.retries - connectRetries;
    const reconnectWork = minus(await work(server), wc);
    await profStop('reconnect');
    if (opts.until === 'reconnect') return undefined;

    await clients.quit();
    clients = undefined;
    await sleep(2000);
    const afterMem = await server.command('mem');
    // A second look later: an allocator that purges on a timer (jemalloc's decay) has had time to, and the
    // release grace (MESHSCOPE_XDS_RELEASE_GRACE_MS, where the server has one: what a proxy's last connection
    // owned is kept that long for a reconnect) is over.
    await sleep(10_000 + RELEASE_GRACE_MS);
    const laterMem = await server.command('mem');
    return {
      shape,
      mode,
      firstAll: Math.max(...syncs),
      firstP50: median(syncs),
      connect: minus(w1, w0),
      warmup: { state: String(warm.state), scopes: Number(warm.scopes), ms: Number(warm.ms), cpuMs: Number(warm.cpuMs) },
      connectRetries,
      reconnectRetries,
      connectTraffic: first.traffic,
      reconnectTraffic: again.traffic,
      vs,
      vsAffected,
      vsOthersSent,
      vsWork,
      vsEventMs,
      vsLiveMs,
      edsEventMs: edsEvent ? (edsEvent.at as number) - e0 : Number.NaN,
      edsWriteMs,
      edsLiveMs: edsEvent ? (edsEvent.liveAt as number) - e0 : Number.NaN,
      edsP50: percentile(eds, 50),
      edsP99: percentile(eds, 99),
      edsClients: vsAffected,
      edsNonEds: nonEds,
      edsAll: edsEvent ? (edsEvent.all as boolean | undefined) : undefined,
      edsWork,
      reconnect,
      reconnectWork,
      rss: { idle, with: withClients, after: MiB(afterMem.rss), later: MiB(laterMem.rss) },
      mem: { idle: idleMem, with: withMem, after: afterMem, later: laterMem },
      profiles: opts.profiles,
    };
  } finally {
    await clients?.quit();
    await server.quit();
    await input.close();
  }
}
