// The push half of issue 24's VS-edit and EDS rows, timed in process (never asserted): the store's snapshot
// event → the last affected client's response, with the real store, xdsPlane and ADS server here and the K
// distinct-pod clients in a process of their own (bench/clientProc.ts, as bench/issue24.ts runs them). The edits
// are handed to the store as the file source hands them (the same RawInput objects for every unchanged
// document), so the file source's debounce and reading are not in these figures: the clock starts at the
// snapshot event. Prints per change: the plane's synchronous work (planChange + cache.advance + dispatch), the
// live event (changeEvent, what the SSE stream is told), the first and last affected client's arrival, the
// server's CPU and counts of work; with PUSH_PROF_DIR a CPU profile per change.
// `node --import tsx bench/pushPath.ts` (PUSH_N, PUSH_K, PUSH_MODE=sotw|delta, PUSH_ROUNDS, PUSH_CHANGES=vs,eds, PUSH_PROF_DIR).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TYPE } from '../server/envoy/typeUrls';
import { changeEvent } from '../server/impact/changes';
import { createXdsPlane } from '../server/impact/xdsPlane';
import type { RawInput, RawObject } from '../server/model/inputs';
import { DEFAULT_OPTIONS, optionsOf } from '../server/model/mesh';
import { Store } from '../server/sources/store';
import { translateProxy } from '../server/translate';
import { issueMesh, KINDS, withPodIp, withVsWeight } from './issueMesh';
import { formatSummary, startProfile } from './profile';
import { CLIENT_BASE_FLAGS } from './issue24Env';

const N = Number(process.env.PUSH_N ?? 1000);
const K = Number(process.env.PUSH_K ?? 1000);
const MODE = process.env.PUSH_MODE ?? 'sotw';
const ROUNDS = Number(process.env.PUSH_ROUNDS ?? 3);
const PROF = process.env.PUSH_PROF_DIR;
/** Which changes to time: `vs`, `eds` or both (default). */
const CHANGES = new Set((process.env.PUSH_CHANGES ?? 'vs,eds').split(','));
const wall = () => performance.timeOrigin + performance.now();
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

class Child {
  private waiters: Array<(o: Record<string, unknown>) => void> = [];
  constructor(readonly proc: ChildProcess) {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f(o);
    });
  }
  command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const p = new Promise<Record<string, unknown>>((resolve) => {
      const wait = (o: Record<string, unknown>) => (o.reply === cmd ? resolve(o) : this.waiters.push(wait));
      this.waiters.push(wait);
    });
    this.proc.stdin!.write(`${JSON.stringify({ cmd, ...args })}\n`);
    return p;
  }
}

const mesh = issueMesh(N);
const file = (k: string, objs: readonly RawObject[]): RawInput[] =>
  objs.map((object, doc) => ({ object, origin: { source: 'file', file: `/m/${k.toLowerCase()}s.yaml`, doc } }) as RawInput);
const base = Object.fromEntries(KINDS.map((k) => [k, file(k, mesh.byKind[k])])) as Record<string, RawInput[]>;
/** The whole input list with one kind's `index`-th document replaced (every other RawInput the same object as before). */
const edited = (kind: string, objs: readonly RawObject[], index: number): RawInput[] => {
  base[kind] = base[kind]!.map((r, i) => (i === index ? { ...r, object: objs[i]! } : r));
  return KINDS.flatMap((k) => base[k]!);
};

const store = new Store({ debounceMs: 1 });
store.replace(
  'file',
  KINDS.flatMap((k) => base[k]!),
);
store.flush();
let tEvent = 0;
store.onChange(() => {
  tEvent = wall();
});
const plane = createXdsPlane(store, undefined, { ads: { limits: { stalledStreamCloseMs: 600_000 } } });
let tPlane = 0;
let tLive = 0;
let prevSnap = store.snapshot();
store.onChange((snap, change) => {
  tPlane = wall();
  changeEvent(prevSnap, snap, change, optionsOf(snap));
  prevSnap = snap;
  tLive = wall();
});
const port = await plane.ads.start(0, '127.0.0.1');

// K distinct sidecar pods round-robin over the namespaces, svc-0's own left out (bench/issue24Input.ts chooseClients).
const snap = store.snapshot();
const byNs = new Map<string, string[]>();
for (const p of snap.proxies) {
  if (p.type !== 'sidecar' || p.id.startsWith('svc-0-')) continue;
  byNs.set(p.namespace, [...(byNs.get(p.namespace) ?? []), p.id]);
}
const routes = new Map<string, string[]>();
const chosen: Array<{ id: string; namespace: string; routes: string[] }> = [];
const lists = [...byNs.entries()];
for (let i = 0; chosen.length < K && lists.some(([, l]) => l.length > i); i++)
  for (const [ns, l] of lists) {
    if (chosen.length >= K || !l[i]) continue;
    if (!routes.has(ns))
      routes.set(
        ns,
        translateProxy(snap, snap.proxiesById.get(l[i]!)!, DEFAULT_OPTIONS).routes.map((r) => r.name ?? ''),
      );
    chosen.push({ id: l[i]!, namespace: ns, routes: routes.get(ns)! });
  }
const env: NodeJS.ProcessEnv = { ...process.env, BENCH_MODE: MODE };
delete env.LD_PRELOAD;
const clients = new Child(
  spawn(process.execPath, [...CLIENT_BASE_FLAGS, '--import', 'tsx', join(import.meta.dirname, 'clientProc.ts')], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  }),
);
await clients.command('init', { clients: chosen });
const c0 = cpuMs();
const t0 = wall();
await clients.command('connect', { port });
console.log(
  `N=${N} K=${K} ${MODE}: connected in ${((wall() - t0) / 1000).toFixed(1)} s, server CPU ${((cpuMs() - c0) / 1000).toFixed(1)} s; load ${(
    await import('node:os')
  )
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
await new Promise((r) => setTimeout(r, 1000));

const stat = () => plane.cache.stats();
/** Per connection: how many responses of `typeUrl` it was sent and how many resources the last one carried. */
const sent = (typeUrl: string) =>
  new Map(
    plane.ads.connections().map((c) => {
      const t = c.types.find((x) => x.typeUrl === typeUrl);
      return [c.id, { n: t?.pushCount ?? 0, count: t?.sentCount ?? 0 }] as const;
    }),
  );
/** Responses of `typeUrl` sent between two `sent()` readings, and the resources they carried (one response per stream). */
const sentSince = (before: ReturnType<typeof sent>, after: ReturnType<typeof sent>) => {
  let responses = 0;
  let resources = 0;
  for (const [id, a] of after) {
    const d = a.n - (before.get(id)?.n ?? 0);
    if (d <= 0) continue;
    responses += d;
    resources += a.count * d;
  }
  return { responses, resources };
};
async function change(label: string, list: RawInput[], typeUrl: string, n: number): Promise<void> {
  await clients.command('clear');
  const s0 = stat();
  const sent0 = sent(typeUrl);
  const stop = PROF ? await startProfile(join(PROF, `${MODE}-${label}-${n}.cpuprofile`)) : undefined;
  const cpu0 = cpuMs();
  store.replace('file', list);
  const tb = wall();
  store.flush();
  const w = await clients.command('wait', { typeUrl, namespace: 'ns-0', timeoutMs: 60_000 });
  await plane.ads.flush();
  const tIdle = wall();
  const cpu = cpuMs() - cpu0;
  const summary = stop ? await stop() : undefined;
  const at = (w.at as Array<number | null>).map((x) => x ?? Number.NaN);
  const s1 = stat();
  const out = sentSince(sent0, sent(typeUrl));
  const others = await clients.command('received', { namespace: 'ns-0', typeUrl });
  console.log(
    `${label} #${n}: build ${(tEvent - tb).toFixed(1)} ms; plane (plan+advance+dispatch) ${(tPlane - tEvent).toFixed(1)} ms; live event ${(tLive - tPlane).toFixed(1)} ms; ` +
      `${at.length} affected: first ${(Math.min(...at) - tEvent).toFixed(1)} ms, last ${(Math.max(...at) - tEvent).toFixed(1)} ms after the event; queue idle ${(tIdle - tEvent).toFixed(1)} ms; ` +
      `CPU ${cpu.toFixed(0)} ms; translations +${s1.translations - s0.translations}, inbound reused +${s1.inboundReused - s0.inboundReused}, scopeShared +${s1.scopeShared - s0.scopeShared}, CLAs +${s1.clasRecomputed - s0.clasRecomputed}, refreshes +${s1.endpointRefreshes - s0.endpointRefreshes}; ${out.responses} responses of the type carrying ${out.resources} resources; others sent ${others.others}, not of type ${others.notOfType}`,
  );
  if (summary) console.log(`  profile: ${formatSummary(summary)}`);
}

for (let r = 0; r < (CHANGES.has('vs') ? ROUNDS : 0); r++) {
  await change('vs', edited('VirtualService', withVsWeight(mesh, 70 - r * 10), 0), TYPE.route, r);
  await new Promise((res) => setTimeout(res, 300));
}
for (let r = 0; r < (CHANGES.has('eds') ? ROUNDS : 0); r++) {
  await change('eds', edited('Pod', withPodIp(mesh, r + 1), 0), TYPE.endpoint, r);
  await new Promise((res) => setTimeout(res, 300));
}
clients.proc.stdin!.write('{"cmd":"quit"}\n');
await new Promise((r) => setTimeout(r, 500));
clients.proc.kill();
await plane.close();
store.close();
process.exit(0);
