// The ADS server's per-stream code alone, in one process (never asserted): issue 24's mesh (BENCH_I24_N Services,
// 7 multi-document inputs) in the real Store, the runtime's SharedResourceCache and ADS generator, and K distinct-pod
// streams served by the real SotwConnection / DeltaConnection (server/xds) on in-process calls: each request arrives
// as wire bytes decoded by the server's own deserializer, each response is serialized by the server's own serializer
// (the scratch buffer, service.ts) and read back as the bench's clients read it (bench/xdsWire.ts: CDS → EDS by the
// EDS clusters' names, LDS → RDS by the listeners' route names, every response ACKed). No gRPC, HTTP/2 or sockets:
// what is left is the server's own request handling, generation and response assembly (plus the in-process
// clients' reading, the same on both sides of an A/B). Then every stream is closed (what the plane releases on a
// drop) and the same K reconnect. Prints CPU per wave and per client.
//   BENCH_I24_N / BENCH_I24_K (1000 / 1000), BENCH_MODES (sotw,delta), BENCH_STREAMS_PROFILE=1 (a profile summary per wave)
// Run: `node --import tsx bench/streams.ts`.
import { EventEmitter } from 'node:events';
import { TYPE } from '../server/envoy/typeUrls';
import { createAdsGenerator } from '../server/pipeline/adsGenerator';
import { DEFAULT_CACHE_BYTES, SharedResourceCache } from '../server/pipeline/sharedResources';
import { AnyCache } from '../server/xds/cache';
import type { AdsConnection, ConnectionContext } from '../server/xds/connection';
import { DeltaConnection } from '../server/xds/delta';
import { DEFAULT_LIMITS } from '../server/xds/limits';
import { LogLimiter } from '../server/xds/logLimit';
import { SotwResponseCache } from '../server/xds/prepared';
import { adsServerDefinition } from '../server/xds/service';
import { SliceScheduler } from '../server/xds/slices';
import { SotwConnection } from '../server/xds/sotw';
import { issueStore } from './issueStore';
import { startProfile } from './profile';
import {
  encodeDeltaRequest,
  encodeNode,
  encodeSotwRequest,
  isEdsCluster,
  rdsNames,
  readDeltaResponse,
  readSotwResponse,
  type WireResponse,
} from './xdsWire';

const N = Number(process.env.BENCH_I24_N ?? 1000);
const K = Number(process.env.BENCH_I24_K ?? 1000);
const modes = (process.env.BENCH_MODES ?? 'sotw,delta').split(',').filter(Boolean) as Array<'sotw' | 'delta'>;
const PROFILE = process.env.BENCH_STREAMS_PROFILE === '1';
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

const { store, snap } = issueStore(N);

// K distinct sidecars, round-robin over the namespaces, svc-0's pods left out (bench/issue24Input.ts chooseClients).
const byNs = new Map<string, string[]>();
for (const p of snap.proxies) {
  if (p.type !== 'sidecar' || p.id.startsWith('svc-0-')) continue;
  byNs.set(p.namespace, [...(byNs.get(p.namespace) ?? []), p.id]);
}
const lists = [...byNs.values()];
const chosen: string[] = [];
for (let i = 0; chosen.length < K && lists.some((l) => l.length > i); i++)
  for (const l of lists) if (chosen.length < K && l[i]) chosen.push(l[i]!);

const def = adsServerDefinition();
const serialize = def.StreamAggregatedResources.responseSerialize;
const decodeSotw = def.StreamAggregatedResources.requestDeserialize;
const decodeDelta = def.DeltaAggregatedResources.requestDeserialize;

/** A gRPC server call as a connection sees it, in process: requests emitted as decoded messages, responses serialized. */
class Call extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  constructor(private readonly onResponse: (bytes: Uint8Array) => void) {
    super();
  }
  getPeer(): string {
    return '127.0.0.1:1';
  }
  write(res: Parameters<typeof serialize>[0], cb: () => void): boolean {
    // grpc-js serializes at once and copies the bytes into its frame (the scratch is reused by the next response).
    const bytes = Buffer.from(serialize(res));
    setImmediate(() => this.onResponse(bytes)); // the client reads it later, as over a socket
    process.nextTick(cb);
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
}

/** One client's stream: CDS and LDS first, then EDS and RDS by the names in those responses; every response ACKed. */
function connect(ctx: ConnectionContext, mode: 'sotw' | 'delta', id: string, n: number, conns: AdsConnection[], synced: () => void): void {
  const pod = snap.proxiesById.get(id)!;
  const node = encodeNode(`sidecar~${pod.ips[0] ?? ''}~${id}~${pod.namespace}.svc.cluster.local`);
  const acked = new Set<string>();
  let call: Call;
  const send = (bytes: Buffer) => call.emit('data', mode === 'sotw' ? decodeSotw(bytes) : decodeDelta(bytes));
  const request = (typeUrl: string, names: readonly string[], withNode = false) =>
    send(
      mode === 'sotw'
        ? encodeSotwRequest({ typeUrl, resourceNames: names, ...(withNode ? { node } : {}) })
        : encodeDeltaRequest({ typeUrl, subscribe: names, ...(withNode ? { node } : {}) }),
    );
  const asked = new Map<string, readonly string[]>();
  const ask = (typeUrl: string, names: readonly string[], withNode = false) => {
    asked.set(typeUrl, names);
    request(typeUrl, names, withNode);
  };
  call = new Call((bytes) => {
    const r: WireResponse = mode === 'sotw' ? readSotwResponse(bytes) : readDeltaResponse(bytes);
    // ACK first (as Envoy does), then the dependent subscription.
    send(
      mode === 'sotw'
        ? encodeSotwRequest({
            typeUrl: r.typeUrl,
            versionInfo: r.version,
            resourceNames: asked.get(r.typeUrl) ?? [],
            responseNonce: r.nonce,
          })
        : encodeDeltaRequest({ typeUrl: r.typeUrl, responseNonce: r.nonce }),
    );
    if (r.typeUrl === TYPE.cluster && !asked.has(TYPE.endpoint))
      ask(
        TYPE.endpoint,
        r.resources.filter((x) => isEdsCluster(bytes, x.start, x.end)).map((x) => x.name),
      );
    if (r.typeUrl === TYPE.listener && !asked.has(TYPE.route))
      ask(TYPE.route, [...new Set(r.resources.flatMap((x) => rdsNames(bytes, x.start, x.end)))].sort());
    acked.add(r.typeUrl);
    if (acked.size === 4) synced();
  });
  const conn = mode === 'sotw' ? new SotwConnection(call as never, ctx, n) : new DeltaConnection(call as never, ctx, n);
  conns.push(conn);
  ask(TYPE.cluster, [], true);
  ask(TYPE.listener, []);
}

async function run(mode: 'sotw' | 'delta'): Promise<void> {
  const cache = new SharedResourceCache(DEFAULT_CACHE_BYTES, { graceMs: 30_000 });
  const generator = createAdsGenerator(() => store.snapshot(), undefined, cache);
  const anyCache = new AnyCache();
  const limits = { ...DEFAULT_LIMITS };
  const ctx: ConnectionContext = {
    generator,
    anyCache,
    sotwResponses: new SotwResponseCache(anyCache),
    slices: new SliceScheduler({ maxBytes: limits.maxPendingSendBytes, holdMs: limits.writeTimeoutMs }),
    log: () => {},
    nackLog: new LogLimiter(() => {}, 'NACK', { burst: 20, perSecond: 2, maxChars: 600 }),
    limits,
    controlPlane: '{"Component":"meshscope"}',
    now: () => new Date(),
    identified: () => {},
  };
  let n = 0;
  const wave = async (label: string): Promise<AdsConnection[]> => {
    const conns: AdsConnection[] = [];
    let left = chosen.length;
    let done!: () => void;
    const all = new Promise<void>((r) => {
      done = r;
    });
    const stop = PROFILE ? await startProfile() : undefined;
    const c0 = cpu();
    for (const id of chosen) connect(ctx, mode, id, ++n, conns, () => --left === 0 && done());
    await all;
    const ms = cpu() - c0;
    const s = cache.stats();
    console.log(
      `${mode} ${label}: CPU ${ms.toFixed(0)} ms (${(ms / chosen.length).toFixed(3)} ms/client); translations ${s.translations}, inbound-only ${s.scopeShared}`,
    );
    if (stop) {
      const p = await stop();
      console.log(`  profile ${p.totalMs.toFixed(0)} ms: ${p.top.map((x) => `${x.fn} ${x.selfMs.toFixed(0)}`).join(', ')}`);
    }
    return conns;
  };
  const first = await wave('first configs');
  // A server-side drop: every stream closed, their proxies released (as the plane does), then the same K again.
  const c0 = cpu();
  for (const c of first) c.close();
  cache.release(chosen);
  console.log(`${mode} drop: CPU ${(cpu() - c0).toFixed(0)} ms`);
  const again = await wave('reconnect');
  for (const c of again) c.close();
}

console.log(`streams: N=${N} K=${chosen.length}`);
for (const mode of modes) await run(mode);
store.close();
