// The bench's server process: a watched directory (the real file source) → store → the ADS server, wired as
// the runtime wires them (server/impact/xdsPlane.ts), on 127.0.0.1:0. A child of bench/push.ts so its memory
// and CPU are its own. Protocol: one JSON line per message on stdout; commands, one JSON line each, on stdin:
//   {"cmd":"mem"} → {"reply":"mem","rss":…,"heapUsed":…,"external":…,"arrayBuffers":…,"mallocHeap":…,"cache":…} (after two GCs; run with --expose-gc)
//   {"cmd":"stats"} → {"reply":"stats","cache":…,"cpuMs":…} (translations, CLA refreshes, shared hits, bytes; process CPU)
//   {"cmd":"prof-start"} / {"cmd":"prof-stop"} → {"reply":"prof-stop","summary":…} (raw profiles kept in BENCH_PROFILE_DIR if set)
// and unprompted {"event":"snapshot","at":…,"version":…,"endpointsOnly":…} for every new snapshot
// (`at`: performance.timeOrigin + now, comparable across processes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FileSource } from '../server/sources/file/fileSource';
import { Store } from '../server/sources/store';
import { createXdsPlane } from '../server/impact/xdsPlane';
import { startProfile, type ProfileSummary } from './profile';

const dir = process.env.BENCH_DIR;
if (!dir) throw new Error('BENCH_DIR is required');
const wall = () => performance.timeOrigin + performance.now();
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const store = new Store({ debounceMs: 100 });
const src = new FileSource('file', [dir], { watch: true });
await src.start(store);
store.flush();
const plane = createXdsPlane(store, undefined, { ads: { log: () => undefined } });
store.onChange((snap, change) => say({ event: 'snapshot', at: wall(), version: snap.version, endpointsOnly: change.endpointsOnly }));
const port = await plane.ads.start(0, '127.0.0.1');
const snap = store.snapshot();
say({
  event: 'ready',
  port,
  version: snap.version,
  proxies: snap.proxies.map((p) => ({ id: p.id, type: p.type, namespace: p.namespace })),
});

const gc = (globalThis as { gc?: () => void }).gc;

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
    say({ reply: 'stats', cache: plane.cache.stats(), cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (cmd === 'prof-start') {
    // BENCH_PROFILE_DIR: keep each raw profile (server-<n>.cpuprofile) for a closer look.
    const keep = process.env.BENCH_PROFILE_DIR;
    stop = await startProfile(keep ? join(keep, `server-${++profiles}.cpuprofile`) : undefined);
    say({ reply: 'prof-start' });
  } else if (cmd === 'prof-stop') {
    const summary = stop ? await stop() : undefined;
    stop = undefined;
    say({ reply: 'prof-stop', summary });
  } else if (cmd === 'quit') {
    break;
  }
}
await src.stop();
await plane.close();
store.close();
process.exit(0);
