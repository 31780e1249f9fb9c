// ADS push fan-out: K loopback SotW clients (meshscope's raw test client, real gRPC) connected to the real
// AdsServer + generator, wired to a Store as the runtime wires them. Measures, after the clients are synced:
//   1. a VirtualService change → every client re-sent its route config → time until the server recorded the
//      last ACK (and until the last client received its response);
//   2. an endpoint change (EndpointSlice) → EDS on the wire: time until the first and the last client got it,
//      and that nothing but EDS was sent.
// Figures only (benchmarks are not tests). Debounce is set to 0 ms so the figures are the push path itself.
import type { RawInput } from '../server/sources/types';
import { TYPE } from '../server/envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { createAdsGenerator } from '../server/pipeline/adsGenerator';
import { createCache } from '../server/pipeline/cache';
import { connectStoreToAds } from '../server/impact/changes';
import type { ProxyResources } from '../server/pipeline/proxyResources';
import { Store } from '../server/sources/store';
import { AdsServer } from '../server/xds/server';
import { AdsTestClient, namesOf, type SotwTestStream } from '../server/xds/testing/adsTestClient';
import type { DiscoveryResponse } from '../server/gen/envoy/service/discovery/v3/discovery_pb';
import { generateMesh } from './generateMesh';

export interface FanoutRow {
  bench: string;
  size: string;
  figure: string;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STREAMS_PER_CHANNEL = 100;

interface Tracked {
  stream: SotwTestStream;
  received: Array<{ typeUrl: string; at: number }>;
}

/** Acks every response as it arrives (what a well-behaved Envoy does) and records when it came. */
function autoAck(t: Tracked): void {
  const loop = async () => {
    for (;;) {
      let r: DiscoveryResponse;
      try {
        r = await t.stream.next(600_000);
      } catch {
        return; // stream ended
      }
      t.received.push({ typeUrl: r.typeUrl, at: now() });
      t.stream.ack(r);
    }
  };
  void loop();
}

async function until(cond: () => boolean, timeoutMs: number, pollMs = 5): Promise<boolean> {
  const end = now() + timeoutMs;
  while (!cond()) {
    if (now() > end) return false;
    await sleep(pollMs);
  }
  return true;
}

const vsWeights = (w1: number): RawInput => ({
  object: {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'svc-0', namespace: 'ns-0' },
    spec: {
      hosts: ['svc-0'],
      http: [
        {
          route: [
            { destination: { host: 'svc-0', subset: 'v1' }, weight: w1 },
            { destination: { host: 'svc-0', subset: 'v2' }, weight: 100 - w1 },
          ],
        },
      ],
    },
  },
  origin: { source: 'demo', file: 'bench-change' },
});

const slice = (ip: string): RawInput => ({
  object: {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'svc-0-bench', namespace: 'ns-0', labels: { 'kubernetes.io/service-name': 'svc-0' } },
    addressType: 'IPv4',
    ports: [{ name: 'http-0', port: 8080, protocol: 'TCP' }],
    endpoints: [{ addresses: [ip], conditions: { ready: true } }],
  },
  origin: { source: 'demo', file: 'bench-change' },
});

export async function benchXdsFanout(k: number, services = 50): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
  const size = `${k} clients, ${services} services`;
  const store = new Store({ debounceMs: 0 });
  store.replace('mesh', generateMesh({ services }));
  store.flush();
  const cache = createCache<ProxyResources>(1024);
  const unclear = store.onChange(() => cache.clear());
  const ads = new AdsServer({
    generator: createAdsGenerator(() => store.snapshot(), DEFAULT_OPTIONS, cache),
    debounceMs: 0,
    maxDebounceMs: 1000,
  });
  const unwire = connectStoreToAds(store, ads);
  const port = await ads.start(0, '127.0.0.1');
  const channels = Array.from({ length: Math.ceil(k / STREAMS_PER_CHANNEL) }, () => new AdsTestClient(port));
  const proxies = store.snapshot().proxies;
  const tracked: Tracked[] = [];
  try {
    // Connect: LDS and CDS wildcard, RDS and EDS by the names the first responses carry.
    let t0 = now();
    for (let i = 0; i < k; i++) {
      const p = proxies[i % proxies.length]!;
      const stream = channels[Math.floor(i / STREAMS_PER_CHANNEL)]!.sotw({
        id: `sidecar~${p.ips[0] ?? '10.0.0.1'}~${p.id}~${p.namespace}.svc.cluster.local`,
      });
      tracked.push({ stream, received: [] });
    }
    await Promise.all(
      tracked.map(async (t) => {
        const cds = await t.stream.request({ typeUrl: TYPE.cluster }, 120_000);
        t.stream.ack(cds);
        const eds = await t.stream.request(
          { typeUrl: TYPE.endpoint, resourceNames: namesOf(cds).filter((n) => n.startsWith('outbound|')) },
          120_000,
        );
        t.stream.ack(eds);
        const lds = await t.stream.request({ typeUrl: TYPE.listener }, 120_000);
        t.stream.ack(lds);
        const rds = await t.stream.request({ typeUrl: TYPE.route, resourceNames: ['8080'] }, 120_000);
        t.stream.ack(rds);
      }),
    );
    rows.push({
      bench: 'ADS connect + initial sync',
      size,
      figure: `${(now() - t0).toFixed(0)} ms for all clients (CDS, EDS, LDS, RDS each)`,
    });
    for (const t of tracked) autoAck(t);
    await ads.flush();

    // 1. VirtualService change → RDS to everyone → last ACK.
    const acked = (v: string) => ads.connections().every((c) => c.types.find((x) => x.typeUrl === TYPE.route)?.ackedVersion === v);
    for (const t of tracked) t.received.length = 0;
    t0 = now();
    store.upsert('change', vsWeights(50));
    store.flush();
    const v1 = String(store.snapshot().version);
    const okVs = await until(() => acked(v1), 120_000, 10);
    const tAck = now() - t0;
    const lastRecv = Math.max(...tracked.map((t) => t.received.find((r) => r.typeUrl === TYPE.route)?.at ?? NaN)) - t0;
    const types = new Set(tracked.flatMap((t) => t.received.map((r) => r.typeUrl.slice(r.typeUrl.lastIndexOf('.') + 1))));
    rows.push({
      bench: 'VS change → last ACK',
      size,
      figure: okVs
        ? `${tAck.toFixed(0)} ms to the last ACK recorded (last response received at ${lastRecv.toFixed(0)} ms; sent: ${[...types].sort().join(', ')})`
        : 'timed out after 120 s',
    });

    // 2. Endpoint change → EDS on the wire.
    await ads.flush();
    await sleep(50);
    for (const t of tracked) t.received.length = 0;
    t0 = now();
    store.upsert('change', slice('10.200.0.1'));
    store.flush();
    const okEds = await until(() => tracked.every((t) => t.received.some((r) => r.typeUrl === TYPE.endpoint)), 120_000, 1);
    const edsTimes = tracked.map((t) => (t.received.find((r) => r.typeUrl === TYPE.endpoint)?.at ?? NaN) - t0).sort((a, b) => a - b);
    const other = tracked.reduce((n, t) => n + t.received.filter((r) => r.typeUrl !== TYPE.endpoint).length, 0);
    rows.push({
      bench: 'endpoint change → EDS on the wire',
      size,
      figure: okEds
        ? `first ${edsTimes[0]!.toFixed(1)} ms, median ${edsTimes[Math.floor(edsTimes.length / 2)]!.toFixed(1)} ms, last ${edsTimes[edsTimes.length - 1]!.toFixed(1)} ms; non-EDS responses: ${other}`
        : 'timed out after 120 s',
    });
    const mem = process.memoryUsage();
    rows.push({
      bench: 'process heap with clients',
      size,
      figure: `${(mem.heapUsed / 1024 / 1024).toFixed(0)} MiB heap used (server + clients in one process)`,
    });
  } finally {
    for (const t of tracked) t.stream.cancel();
    for (const c of channels) c.close();
    unwire();
    unclear();
    await ads.stop();
    store.close();
  }
  return rows;
}
