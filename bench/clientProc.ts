// The bench's ADS clients in a process of their own (bench/issue24.ts starts one or more): the controller
// that edits the mesh and takes the figures no longer shares an event loop (and a garbage collector) with
// thousands of streams, so at K = 2,000 its timers and its server conversation are not held up by the
// clients' decoding. Protocol: the mode in BENCH_MODE; one JSON line per command on stdin, one reply line
// each on stdout:
//   {"cmd":"init","clients":[{id,namespace,routes}…]} → {"reply":"init"}
//   {"cmd":"connect","port":P} → every client connects (fresh channels, 100 streams each) and ACKs its first
//                                config → {"reply":"connect","synced":[…],"retries":n} (wall-clock ms per client)
//   {"cmd":"clear"}            → forget what was received → {"reply":"clear"}
//   {"cmd":"wait","typeUrl":T,"namespace":NS,"timeoutMs":t} → until every client of NS received T
//                                → {"reply":"wait","ok":bool,"at":[…first arrival per client of NS (null: none)]}
//   {"cmd":"received","namespace":NS,"typeUrl":T} → {"reply":"received","others":n (clients outside NS that got
//                                anything),"notOfType":n (responses not of T, all clients)}
//   {"cmd":"dropped","timeoutMs":t} → until every stream ended → {"reply":"dropped","ok":bool}
//   {"cmd":"quit"}
// Times are performance.timeOrigin + now(): comparable across processes.
import { createInterface } from 'node:readline';
import { AdsTestClient } from '../server/xds/testing/adsTestClient';
import { BenchClient, type Mode, waitUntil } from './issueClients';

const STREAMS_PER_CHANNEL = 100;
const mode = process.env.BENCH_MODE as Mode;
type Spec = { id: string; namespace: string; routes: string[] };
let clients: BenchClient[] = [];
let channels: AdsTestClient[] = [];
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const num = (x: number) => (Number.isFinite(x) ? x : null);

for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line) as { cmd: string; clients?: Spec[]; port?: number; typeUrl?: string; namespace?: string; timeoutMs?: number };
  if (m.cmd === 'init') {
    clients = (m.clients ?? []).map((s) => new BenchClient(s.id, s.namespace, mode, s.routes));
    say({ reply: 'init' });
  } else if (m.cmd === 'connect') {
    for (const ch of channels) ch.close();
    channels = [];
    await Promise.all(
      clients.map((c, i) => {
        if (i % STREAMS_PER_CHANNEL === 0) channels.push(new AdsTestClient(m.port!));
        return c.connect(channels[channels.length - 1]!);
      }),
    );
    say({
      reply: 'connect',
      synced: clients.map((c) => c.synced[c.synced.length - 1]!),
      retries: clients.reduce((n, c) => n + c.retries, 0),
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
