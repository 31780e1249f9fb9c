// Issue #20's ztunnel figures (never asserted): ztunnel's view for 10,000 pods / 2,000 Services built (translate +
// encode, goal ≤ 300 ms), and a pod IP change → its Address delta on the wire to 100 wildcard Delta clients (p99,
// goal ≤ 100 ms; ztunnel's resend-only-changes anchor: 12 ms at ~69k workloads, istio#60935). Server and clients
// share this process (loopback gRPC). Alone: `node --import tsx bench/ztunnel.ts` (BENCH_ZTUNNEL_PODS,
// BENCH_ZTUNNEL_SERVICES, BENCH_ZTUNNEL_CLIENTS, BENCH_ZTUNNEL_ROUNDS).
import { fileURLToPath } from 'node:url';
import { TYPE } from '../server/envoy/typeUrls';
import { createXdsPlane } from '../server/impact/xdsPlane';
import type { RawInput } from '../server/model/inputs';
import { optionsOf } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { EncodeMemo, encodeTable } from '../server/pipeline/encodeTable';
import { ZTUNNEL_PROXY } from '../server/pipeline/ztunnelConfig';
import { Store } from '../server/sources/store';
import { translateZtunnel } from '../server/translate/ztunnel';
import { ZtunnelMemo } from '../server/translate/ztunnel/memo';
import { AdsTestClient, type DeltaTestStream } from '../server/xds/testing/adsTestClient';
import { type BenchRow, load1, median, percentile } from './table';

const ip = (i: number, base: number) => `10.${base + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`;

/** `services` Services in namespaces of 50, `pods` pods spread over them, all enrolled by istio-cni. */
export function ambientMesh(pods: number, services: number): RawInput[] {
  const out: RawInput[] = [];
  const at = (object: Record<string, unknown>): RawInput => ({ object, origin: { source: 'file', file: 'bench' } }) as RawInput;
  const nsOf = (s: number) => `ns-${Math.floor(s / 50)}`;
  for (let n = 0; n * 50 < services; n++)
    out.push(at({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${n}`, labels: { 'istio.io/dataplane-mode': 'ambient' } } }));
  for (let s = 0; s < services; s++)
    out.push(
      at({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `svc-${s}`, namespace: nsOf(s) },
        spec: { clusterIP: ip(s, 96), selector: { app: `svc-${s}` }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] },
      }),
    );
  for (let p = 0; p < pods; p++) {
    const s = p % services;
    out.push(at(podObject(p, s, nsOf(s), ip(p, 200))));
  }
  return out;
}

function podObject(p: number, s: number, ns: string, podIp: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${p}`, namespace: ns, labels: { app: `svc-${s}` }, annotations: { 'ambient.istio.io/redirection': 'enabled' } },
    spec: { containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
    status: { podIP: podIp, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

export function benchZtunnelView(pods: number, services: number): BenchRow {
  const snap = buildSnapshot(ambientMesh(pods, services), { version: 1, ambient: true });
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const table = translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap));
    const r = encodeTable(ZTUNNEL_PROXY, snap.version, table);
    times.push(performance.now() - t0);
    count = (r.addresses?.length ?? 0) + (r.authorizations?.length ?? 0);
  }
  return {
    figure: "ztunnel's view built (translate + encode)",
    size: `${pods} pods / ${services} Services`,
    value: median(times),
    unit: 'ms',
    goal: 300,
    detail: `median of 5 (min ${Math.min(...times).toFixed(0)} ms); ${count} resources`,
    load: load1(),
  };
}

/**
 * The view rebuilt after a pod IP change, incrementally (translate/ztunnel/memo.ts: every other Workload and Service
 * and its encoding reused, as the runtime's SharedResourceCache does): snapshots from the Store, as in the server.
 */
export function benchZtunnelIncremental(pods: number, services: number): BenchRow {
  const store = new Store({ debounceMs: 1 });
  store.setAmbient(true);
  store.replace('bench', ambientMesh(pods, services));
  store.flush();
  const memo = new ZtunnelMemo();
  const encodeMemo = new EncodeMemo();
  const build = () => {
    const snap = store.snapshot();
    return encodeTable(ZTUNNEL_PROXY, snap.version, translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap), memo), encodeMemo);
  };
  build();
  const times: number[] = [];
  const snaps: number[] = [];
  for (let round = 0; round < 10; round++) {
    const p = round;
    const s = p % services;
    const s0 = performance.now();
    store.upsert('bench', {
      object: podObject(p, s, `ns-${Math.floor(s / 50)}`, ip(pods + round, 200)),
      origin: { source: 'file', file: 'bench' },
    } as RawInput);
    store.flush();
    store.snapshot();
    const t0 = performance.now();
    snaps.push(t0 - s0);
    build();
    times.push(performance.now() - t0);
  }
  store.close();
  return {
    figure: "ztunnel's view rebuilt after a pod IP change (incremental)",
    size: `${pods} pods / ${services} Services`,
    value: median(times),
    unit: 'ms',
    goal: 300,
    detail: `median of 10 (max ${Math.max(...times).toFixed(0)} ms); snapshot build before it ${median(snaps).toFixed(0)} ms median; memo ${memo.hits} hits / ${memo.misses} misses`,
    load: load1(),
  };
}

export async function benchZtunnelDelta(pods: number, services: number, clients: number, rounds: number): Promise<BenchRow> {
  const inputs = ambientMesh(pods, services);
  const store = new Store({ debounceMs: 1 });
  store.setAmbient(true);
  store.replace('bench', inputs);
  store.flush();
  const plane = createXdsPlane(store, undefined, { ads: { debounceMs: 1, maxDebounceMs: 50 } });
  const port = await plane.ads.start(0, '127.0.0.1');
  const channels: AdsTestClient[] = [];
  const streams: DeltaTestStream[] = [];
  for (let i = 0; i < clients; i++) {
    if (i % 25 === 0) channels.push(new AdsTestClient(port));
    const s = channels[channels.length - 1]!.delta({
      id: `ztunnel~10.1.0.${i % 250}~ztunnel-${i}.istio-system~istio-system.svc.cluster.local`,
      metadata: { NAMESPACE: 'istio-system' },
    });
    const r = await s.request({ typeUrl: TYPE.address }, 120_000);
    s.ack(r);
    streams.push(s);
  }
  const latencies: number[] = [];
  let oneEach = true;
  for (let round = 0; round < rounds; round++) {
    const p = round % pods;
    const s = p % services;
    const ns = `ns-${Math.floor(s / 50)}`;
    const t0 = performance.now();
    store.upsert('bench', { object: podObject(p, s, ns, ip(pods + round, 200)), origin: { source: 'file', file: 'bench' } } as RawInput);
    store.flush();
    await Promise.all(
      streams.map(async (st) => {
        const r = await st.next(60_000);
        latencies.push(performance.now() - t0);
        if (r.resources.length !== 1) oneEach = false;
        st.ack(r);
      }),
    );
  }
  for (const st of streams) st.cancel();
  for (const c of channels) c.close();
  await plane.close();
  store.close();
  return {
    figure: 'pod IP change → Address delta on the wire, p99',
    size: `${clients} wildcard Delta clients, ${pods} pods / ${services} Services`,
    value: percentile(latencies, 99),
    unit: 'ms',
    goal: 100,
    anchor: { value: 12, text: "ztunnel's resend-only-changes, ~69k workloads (istio#60935)" },
    detail: `${rounds} changes; p50 ${median(latencies).toFixed(0)} ms; ${oneEach ? 'each a single Address' : 'NOT always a single Address'}; in-process server`,
    load: load1(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pods = Number(process.env.BENCH_ZTUNNEL_PODS ?? 10_000);
  const services = Number(process.env.BENCH_ZTUNNEL_SERVICES ?? 2_000);
  const rows = [benchZtunnelView(pods, services), benchZtunnelIncremental(pods, services)];
  for (const r of rows) console.log(JSON.stringify(r));
  rows.push(
    await benchZtunnelDelta(
      pods,
      services,
      Number(process.env.BENCH_ZTUNNEL_CLIENTS ?? 100),
      Number(process.env.BENCH_ZTUNNEL_ROUNDS ?? 20),
    ),
  );
  console.log(JSON.stringify(rows[2]));
  process.exit(0);
}
