// The bench's server process: a watched directory (the real file source) → store → the ADS server, wired as
// the runtime wires them (server/impact/xdsPlane.ts), on 127.0.0.1:0. A child of bench/push.ts so its memory
// and CPU are its own. Protocol: one JSON line per message on stdout; commands, one JSON line each, on stdin:
//   {"cmd":"mem"} → {"reply":"mem","rss":…,"heapUsed":…,"external":…,"arrayBuffers":…,"mallocHeap":…,"cache":…} (after two GCs; run with --expose-gc)
//   {"cmd":"stats"} → {"reply":"stats","cache":…,"cpuMs":…,"sysMs":…,"minorFaults":…,"gc":…} (translations, CLA refreshes,
//     shared hits, bytes; process CPU and its system part, minor page faults, GCs so far by kind: count and ms)
//   {"cmd":"drop"} → every ADS stream closed server-side, then serving again on the same port → {"reply":"drop","at":…}
//   {"cmd":"prof-start"} / {"cmd":"prof-stop"} → {"reply":"prof-stop","summary":…} (raw profiles kept in BENCH_PROFILE_DIR if set)
// and unprompted {"event":"warm","state":…,"scopes":…,"ms":…,"cpuMs":…} once the first scopes' warm-up ended,
// and {"event":"snapshot","at":…,"version":…,"endpointsOnly":…} for every new snapshot
// (`at`: when the store's event fired, before any listener's work; `liveAt`: when the xDS plane's push planning
// and the live event's diff were done; performance.timeOrigin + now, comparable across processes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { FileSource } from '../server/sources/file/fileSource';
import { KubeSource } from '../server/sources/kube/kubeSource';
import { kubeConfigFor } from '../server/sources/kube/testing/fixtures';
import { Store } from '../server/sources/store';
import { createXdsPlane } from '../server/impact/xdsPlane';
import { warmupFromEnv } from '../server/impact/scopeWarmup';
import { changeEvent } from '../server/impact/changes';
import { optionsOf } from '../server/model/mesh';
import { startProfile, type ProfileSummary } from './profile';

// BENCH_DIR: a watched directory (the file source); BENCH_KUBE_URL instead: the kube source against that
// (fake, loopback) API server, as `meshscope serve --kubeconfig` runs it.
const dir = process.env.BENCH_DIR;
const kubeUrl = process.env.BENCH_KUBE_URL;
if (!dir && !kubeUrl) throw new Error('BENCH_DIR or BENCH_KUBE_URL is required');
const wall = () => performance.timeOrigin + performance.now();
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const store = new Store({ debounceMs: 100 });
const src = kubeUrl
  ? new KubeSource('kube', { kubeConfig: kubeConfigFor(kubeUrl), backoff: { initialMs: 200, maxMs: 2000 } })
  : new FileSource('file', [dir!], { watch: true });
await src.start(store);
store.flush();
// The store's event, stamped before the xDS plane's listener (registered next) does its work.
let storeAt = 0;
store.onChange(() => {
  storeAt = wall();
});
// BENCH_STALL_MS: the ADS stall guard (a stream whose response stays unread that long is reset; 30 s by
// default, MESHSCOPE_XDS_STALLED_STREAM_CLOSE) — raised when the machine is too loaded for the bench's own
// clients to keep up. Stream resets are counted and reported with `stats`.
let resets = 0;
const stall = Number(process.env.BENCH_STALL_MS ?? 0);
// BENCH_PENDING_SEND: the server's bound on response bytes written and not yet taken (MESHSCOPE_XDS_MAX_PENDING_SEND;
// 0: none), for measuring what the bound costs a wave.
const pending = process.env.BENCH_PENDING_SEND;
// The scopes' warm-up as `meshscope serve` runs it (MESHSCOPE_XDS_WARMUP=0: off).
const plane = createXdsPlane(store, undefined, {
  warmup: warmupFromEnv(),
  ads: {
    log: (m: string) => {
      if (m.includes('stream reset')) resets++;
    },
    limits: {
      ...(stall > 0 ? { stalledStreamCloseMs: stall } : {}),
      ...(pending !== undefined ? { maxPendingSendBytes: Number(pending) } : {}),
    },
  },
});
let prevSnap = store.snapshot();
store.onChange((snap, change) => {
  // What the live event (SSE) says of this change: does it reach every proxy (`all`), and how many it names.
  const ev = changeEvent(prevSnap, snap, change, optionsOf(snap));
  prevSnap = snap;
  say({
    event: 'snapshot',
    at: storeAt,
    liveAt: wall(),
    version: snap.version,
    endpointsOnly: change.endpointsOnly,
    all: ev.all === true,
    named: ev.proxies.length,
  });
});
const cpu0 = process.cpuUsage();
let port = await plane.ads.start(0, '127.0.0.1');
const snap = store.snapshot();
say({
  event: 'ready',
  port,
  version: snap.version,
  proxies: snap.proxies.map((p) => ({ id: p.id, type: p.type, namespace: p.namespace })),
});
// When the first warm-up ended (scopeWarmup.ts), its state and the process's CPU from `ready` to then.
void plane.warmup.settled().then((w) => {
  const c = process.cpuUsage(cpu0);
  say({ event: 'warm', ...w, cpuMs: (c.user + c.system) / 1000 });
});

const gc = (globalThis as { gc?: () => void }).gc;

/** GCs so far by kind (perf_hooks 'gc' entries: minor = scavenge, major = mark-compact), count and pause ms. */
const gcs: Record<string, { n: number; ms: number }> = {};
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = GC_KINDS[(e as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
    const g = (gcs[kind] ??= { n: 0, ms: 0 });
    g.n++;
    g.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

/** Resident bytes of the C heap (glibc's main arena, the `[heap]` mapping): where freed native memory stays. */
function mallocHeapBytes(): number | undefined {
  try {
    const smaps = readFileSync('/proc/self/smaps', 'utf8');
    const at = smaps.search(/ \[heap\]\n/);
    if (at < 0) return 0;
    const rss = /\nRss:\s+(\d+) kB/.exec(smaps.slice(at));
    return rss ? Number(rss[1]) * 1024 : undefined;
  } catch {
    return undefined; // not Linux
  }
}
let stop: (() => Promise<ProfileSummary>) | undefined;
let profiles = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const { cmd } = JSON.parse(line) as { cmd: string };
  if (cmd === 'mem') {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
    gc?.();
    const m = process.memoryUsage();
    say({
      reply: 'mem',
      rss: m.rss,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      mallocHeap: mallocHeapBytes(),
      connections: plane.ads.stats().connections,
      cache: plane.cache.stats(),
    });
  } else if (cmd === 'stats') {
    const cpu = process.cpuUsage();
    const ru = process.resourceUsage();
    say({
      reply: 'stats',
      cache: plane.cache.stats(),
      cpuMs: (cpu.user + cpu.system) / 1000,
      sysMs: cpu.system / 1000,
      minorFaults: ru.minorPageFault,
      gc: structuredClone(gcs),
      resets,
    });
  } else if (cmd === 'prof-start') {
    // BENCH_PROFILE_DIR: keep each raw profile (server-<n>.cpuprofile) for a closer look.
    const keep = process.env.BENCH_PROFILE_DIR;
    stop = await startProfile(keep ? join(keep, `server-${++profiles}.cpuprofile`) : undefined);
    say({ reply: 'prof-start' });
  } else if (cmd === 'prof-stop') {
    const summary = stop ? await stop() : undefined;
    stop = undefined;
    say({ reply: 'prof-stop', summary });
  } else if (cmd === 'drop') {
    // A server-side drop of every stream (as an istiod restart looks to its clients), then serving again on
    // the same port: the clients reconnect.
    await plane.ads.stop();
    port = await plane.ads.start(port, '127.0.0.1');
    say({ reply: 'drop', at: wall() });
  } else if (cmd === 'quit') {
    break;
  }
}
await src.stop();
await plane.close();
store.close();
process.exit(0);
