// The bench's ADS clients in a process of their own (bench/issue24.ts starts one or more): the controller
// that edits the mesh and takes the figures no longer shares an event loop (and a garbage collector) with
// thousands of streams, so at K = 2,000 its timers and its server conversation are not held up by the
// clients' decoding. Protocol: the mode in BENCH_MODE; one JSON line per command on stdin, one reply line
// each on stdout:
//   {"cmd":"init","clients":[{id,namespace,routes}…]} → {"reply":"init"}
//   {"cmd":"connect","port":P} → every client connects (fresh channels of BENCH_STREAMS_PER_CHANNEL streams) and ACKs its first
//                                config → {"reply":"connect","synced":[…],"retries":n,"traffic":{…}} (wall-clock ms per
//                                client; traffic: what the clients received during the connect — responses,
//                                resources, bytes, per client min/median/max —, how many responses were decoded in
//                                full with protobuf-es to check the wire reading, and the mismatches)
//   {"cmd":"clear"}            → forget what was received → {"reply":"clear"}
//   {"cmd":"wait","typeUrl":T,"namespace":NS,"timeoutMs":t} → until every client of NS received T
//                                → {"reply":"wait","ok":bool,"at":[…first arrival per client of NS (null: none)]}
//   {"cmd":"received","namespace":NS,"typeUrl":T} → {"reply":"received","others":n (clients outside NS that got
//                                anything),"notOfType":n (responses not of T, all clients)}
//   {"cmd":"dropped","timeoutMs":t} → until every stream ended → {"reply":"dropped","ok":bool}
//   {"cmd":"quit"}
// Times are performance.timeOrigin + now(): comparable across processes.
import { createInterface } from 'node:readline';
import { Verifier, VERIFY_CLIENTS, VERIFY_EVERY } from './clientVerify';
import { BenchClient, type Mode, waitUntil } from './issueClients';
import type { Traffic } from './clientTraffic';
import { BufferPool, ISTIO_AGENT_WINDOW, RawAdsChannel } from './rawAds';

/**
 * ADS streams per HTTP/2 connection: one by default, as each sidecar's agent holds its own connection to istiod (so the
 * server's per-client memory includes a connection each). Until session 14 100 streams shared a connection; one per
 * client measured neutral on the wave rows (docs/perf/issue24-waves.md, session 14) and 107 kB RSS per client.
 */
const STREAMS_PER_CHANNEL = Math.max(1, Number(process.env.BENCH_STREAMS_PER_CHANNEL ?? 1));
/**
 * The HTTP/2 windows the clients advertise: by default what istiod's real peer advertises, istio-agent's XDS proxy
 * (1 MiB; bench/rawAds.ts cites the source and the other values). Until session 12 grpc-js' 65,535.
 */
const WINDOW = Number(process.env.BENCH_CLIENT_WINDOW ?? ISTIO_AGENT_WINDOW);
const mode = process.env.BENCH_MODE as Mode;
type Spec = { id: string; namespace: string; routes: string[] };
let clients: BenchClient[] = [];
let channels: RawAdsChannel[] = [];
/** The buffers every channel assembles its multi-chunk messages in (bench/rawAds.ts BufferPool). */
const pool = new BufferPool();
let verifier = new Verifier();
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const num = (x: number) => (Number.isFinite(x) ? x : null);

/** Starts counting afresh (a connect's traffic and checks are its own). */
function resetTraffic(): Verifier {
  const v = new Verifier();
  for (const c of clients) c.resetTraffic(v);
  return v;
}

/** What the clients received since the last reset, and the wire reading's check. */
function traffic(cpu: NodeJS.CpuUsage, verifyCpuMs: number): Traffic {
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return [s[0] ?? 0, s[Math.floor(s.length / 2)] ?? 0, s[s.length - 1] ?? 0];
  };
  let routeMismatch = 0;
  for (const c of clients) {
    const want = [...new Set(c.routes)].sort().join('\n');
    if (c.rdsFromLds !== undefined && c.rdsFromLds.join('\n') !== want) {
      routeMismatch++;
      verifier.fail(`${c.proxy}: LDS names ${c.rdsFromLds.length} routes, the controller expects ${c.routes.length}`);
    }
  }
  return {
    clients: clients.length,
    responses: clients.reduce((n, c) => n + c.traffic.responses, 0),
    resources: clients.reduce((n, c) => n + c.traffic.resources, 0),
    bytes: clients.reduce((n, c) => n + c.traffic.bytes, 0),
    perClientBytes: spread(clients.map((c) => c.traffic.bytes)),
    perClientResources: spread(clients.map((c) => c.traffic.resources)),
    verified: verifier.verified,
    verifyEvery: VERIFY_EVERY,
    verifyClients: Math.min(VERIFY_CLIENTS, clients.length),
    mismatches: verifier.mismatches,
    routeMismatch,
    firstMismatches: verifier.first,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sysMs: cpu.system / 1000,
    verifyCpuMs,
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line) as { cmd: string; clients?: Spec[]; port?: number; typeUrl?: string; namespace?: string; timeoutMs?: number };
  if (m.cmd === 'init') {
    clients = (m.clients ?? []).map((s, i) => new BenchClient(s.id, s.namespace, mode, s.routes, i, verifier));
    say({ reply: 'init' });
  } else if (m.cmd === 'connect') {
    const cpu0 = process.cpuUsage();
    for (const ch of channels) ch.close();
    channels = [];
    verifier = resetTraffic();
    await Promise.all(
      clients.map((c, i) => {
        const open = () => {
          const ch = new RawAdsChannel(m.port!, '127.0.0.1', { window: WINDOW, pool });
          channels.push(ch);
          return ch;
        };
        if (i % STREAMS_PER_CHANNEL === 0) open();
        return c.connect(channels[channels.length - 1]!, open);
      }),
    );
    // The sample's full decodes, after the wave (their CPU still in this reply's figures, and told apart).
    const v0 = process.cpuUsage();
    verifier.checkKept();
    const v1 = process.cpuUsage(v0);
    const reopened = clients.flatMap((c) => c.reopened.splice(0));
    if (reopened.length > 0)
      console.error(
        `bench client: ${reopened.length} connections failed and were opened again, e.g. ${[...new Set(reopened)].slice(0, 3).join('; ')}`,
      );
    say({
      reply: 'connect',
      synced: clients.map((c) => c.synced[c.synced.length - 1]!),
      retries: clients.reduce((n, c) => n + c.retries, 0),
      traffic: traffic(process.cpuUsage(cpu0), (v1.user + v1.system) / 1000),
    });
  } else if (m.cmd === 'clear') {
    for (const c of clients) c.received.length = 0;
    say({ reply: 'clear' });
  } else if (m.cmd === 'wait') {
    const mine = clients.filter((c) => c.namespace === m.namespace);
    const ok = await waitUntil(() => mine.every((c) => c.received.some((x) => x.typeUrl === m.typeUrl)), m.timeoutMs ?? 120_000);
    say({ reply: 'wait', ok, at: mine.map((c) => num(c.received.find((x) => x.typeUrl === m.typeUrl)?.at ?? Number.NaN)) });
  } else if (m.cmd === 'received') {
    say({
      reply: 'received',
      others: clients.filter((c) => c.namespace !== m.namespace && c.received.length > 0).length,
      notOfType: clients.reduce((n, c) => n + c.received.filter((x) => x.typeUrl !== m.typeUrl).length, 0),
    });
  } else if (m.cmd === 'dropped') {
    const ok = await waitUntil(() => clients.every((c) => c.dropped), m.timeoutMs ?? 30_000, 20);
    say({ reply: 'dropped', ok });
  } else if (m.cmd === 'quit') {
    break;
  }
}
for (const c of clients) c.close();
for (const ch of channels) ch.close();
process.exit(0);
