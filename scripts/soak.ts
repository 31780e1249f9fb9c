// `npm run soak`: a bounded mixed load against a real `meshscope serve` on a temp copy of the demo mesh
// (issue 14 acceptance). For SOAK_SECONDS (default 180) at once: the VirtualService file is rewritten
// every 2 s (sometimes broken, then fixed); SSE clients follow /api/events and reconnect; ADS clients
// that ACK everything, that NACK everything, that never read (stall) and that leave after their first
// response connect and churn; the HTTP API is polled. Prints pushes delivered, errors, server heap and
// RSS at start and end; exits 1 on any error (a good ADS client starved, an unexpected HTTP status).
// Not part of `npm test`. Knobs: SOAK_SECONDS, SOAK_ADS (good clients, 8), SOAK_NACK (4), SOAK_STALL (20), SOAK_SSE (4).
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { create } from '@bufbuild/protobuf';
import { NodeSchema } from '../server/gen/envoy/config/core/v3/base_pb';
import {
  DiscoveryRequestSchema,
  type DiscoveryRequest,
  type DiscoveryResponse,
} from '../server/gen/envoy/service/discovery/v3/discovery_pb';
import { TYPE } from '../server/envoy/typeUrls';
import { adsClientDefinition } from '../server/xds/service';
import { REPO_ROOT, spawnServe } from '../server/cli/spawnServe';

const num = (name: string, dflt: number) => (/^\d+$/.test(process.env[name] ?? '') ? Number(process.env[name]) : dflt);
const SECONDS = num('SOAK_SECONDS', 180);
const GOOD = num('SOAK_ADS', 8);
const NACK = num('SOAK_NACK', 4);
const STALL = num('SOAK_STALL', 20);
const SSE = num('SOAK_SSE', 4);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const stats = {
  edits: 0,
  brokenEdits: 0,
  sseEvents: 0,
  sseReconnects: 0,
  pushes: 0,
  nacks: 0,
  stalls: 0,
  leavers: 0,
  http: 0,
  errors: [] as string[],
};
const error = (what: string) => {
  if (stats.errors.length < 50) stats.errors.push(what);
  else stats.errors.length++;
};

const Client = grpc.makeGenericClientConstructor(adsClientDefinition, 'AggregatedDiscoveryService');
type Sotw = grpc.ClientDuplexStream<DiscoveryRequest, DiscoveryResponse>;

/** One ADS stream on its own HTTP/2 connection (a local subchannel pool: a stalled stream never shares a window). */
function openStream(target: string, nodeId: string): { call: Sotw; close(): void } {
  const client = new Client(target, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const call = (client as unknown as { StreamAggregatedResources(): Sotw }).StreamAggregatedResources();
  call.on('error', () => undefined);
  const node = create(NodeSchema, { id: nodeId, cluster: 'soak' });
  for (const typeUrl of [TYPE.cluster, TYPE.listener]) call.write(create(DiscoveryRequestSchema, { node, typeUrl }));
  return {
    call,
    close: () => {
      call.cancel();
      client.close();
    },
  };
}

const ackOf = (r: DiscoveryResponse, nack?: string) =>
  create(DiscoveryRequestSchema, {
    typeUrl: r.typeUrl,
    versionInfo: nack ? '' : r.versionInfo,
    responseNonce: r.nonce,
    ...(nack ? { errorDetail: { code: 3, message: nack } } : {}),
  });

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-soak-'));
  for (const f of readdirSync(join(REPO_ROOT, 'examples', 'demo'))) copyFileSync(join(REPO_ROOT, 'examples', 'demo', f), join(dir, f));
  const trafficFile = join(dir, '30-traffic.yaml');
  const traffic = readFileSync(trafficFile, 'utf8');
  console.log(
    `soak: ${SECONDS} s, ${GOOD} ACKing + ${NACK} NACKing + ${STALL} stalling ADS clients, leavers, ${SSE} SSE clients, file source ${dir}`,
  );
  const s = await spawnServe(['--config', dir, '--port', '0', '--xds-port', '0']);
  const target = s.xds ?? '';
  const get = async (path: string) => {
    stats.http++;
    const r = await fetch(`${s.http}${path}`).catch((e: Error) => ({
      ok: false,
      status: 0,
      statusText: e.message,
      json: async () => ({}),
    }));
    if (!r.ok) error(`GET ${path}: ${r.status} ${r.statusText}`);
    return r.ok ? ((await r.json()) as Record<string, unknown>) : {};
  };
  const memory = async () => ((await get('/api/healthz')).memory ?? { heapUsed: 0, rss: 0 }) as { heapUsed: number; rss: number };
  const proxies = ((await get('/api/proxies')).proxies ?? []) as { id: string; type: string; ips: string[] }[];
  const nodeIds = proxies.map((p) => `${p.type}~${p.ips[0] ?? '10.0.0.1'}~${p.id}~${p.id.split('.')[1]}.svc.cluster.local`);
  const pick = () => nodeIds[Math.floor(Math.random() * nodeIds.length)] ?? 'sidecar~10.0.0.1~x.default~default.svc.cluster.local';
  const start = await memory();
  const deadline = Date.now() + SECONDS * 1000;
  const running = () => Date.now() < deadline;
  const loops: Promise<void>[] = [];

  // File edits every 2 s: route weights (RDS) and the products DestinationRule's load balancer and
  // connection pool (CDS, pushed to every sidecar that sees products); every 7th edit breaks the file
  // for one round (the last good objects must keep serving).
  const POLICIES = ['ROUND_ROBIN', 'RANDOM', 'LEAST_REQUEST'];
  const edited = (i: number) =>
    traffic
      .replace('weight: 80', `weight: ${10 + ((i * 10) % 80)}`)
      .replace('weight: 20', `weight: ${90 - ((i * 10) % 80)}`)
      .replace(
        '      simple: LEAST_REQUEST',
        `      simple: ${POLICIES[i % 3]}\n    connectionPool:\n      tcp:\n        maxConnections: ${100 + i}`,
      );
  let lastEditAt = Date.now();
  loops.push(
    (async () => {
      let i = 1;
      for (; running(); i++) {
        const broken = i % 7 === 0;
        writeFileSync(trafficFile, broken ? `${traffic}\n  bad: [unclosed\n` : edited(i));
        stats.edits++;
        if (broken) stats.brokenEdits++;
        else lastEditAt = Date.now();
        await sleep(2000);
      }
      writeFileSync(trafficFile, edited(i + 1));
      lastEditAt = Date.now();
    })(),
  );

  // SSE clients, reconnecting every 20–40 s.
  for (let k = 0; k < SSE; k++) {
    loops.push(
      (async () => {
        while (running()) {
          const ac = new AbortController();
          const stop = setTimeout(() => ac.abort(), 20_000 + Math.random() * 20_000);
          try {
            const r = await fetch(`${s.http}/api/events`, { signal: ac.signal });
            if (!r.ok || !r.body) error(`SSE: ${r.status}`);
            const reader = r.body?.getReader();
            const dec = new TextDecoder();
            while (reader && running()) {
              const { done, value } = await reader.read();
              if (done) break;
              stats.sseEvents += (dec.decode(value).match(/^event: /gm) ?? []).length;
            }
          } catch (e) {
            if (!ac.signal.aborted) error(`SSE: ${(e as Error).message}`);
          }
          clearTimeout(stop);
          ac.abort();
          stats.sseReconnects++;
        }
      })(),
    );
  }

  // ACKing clients: count every response; each must keep receiving pushes.
  const lastPush = new Map<number, number>();
  const good: { close(): void }[] = [];
  for (let k = 0; k < GOOD; k++) {
    const st = openStream(target, pick());
    st.call.on('data', (r: DiscoveryResponse) => {
      stats.pushes++;
      lastPush.set(k, Date.now());
      st.call.write(ackOf(r));
    });
    st.call.on('status', (x: grpc.StatusObject) => running() && error(`ACKing client ${k} stream ended: ${x.code} ${x.details}`));
    good.push(st);
  }
  // NACKing clients: reject every response, reconnect every ~30 s.
  for (let k = 0; k < NACK; k++) {
    loops.push(
      (async () => {
        while (running()) {
          const st = openStream(target, pick());
          st.call.on('data', (r: DiscoveryResponse) => {
            stats.nacks++;
            st.call.write(ackOf(r, `soak: rejected ${r.typeUrl} version ${r.versionInfo}`));
          });
          await sleep(25_000 + Math.random() * 10_000);
          st.close();
        }
      })(),
    );
  }
  // Stalling clients: subscribe, never read, leave after 5–20 s; and leavers: first response, then gone.
  for (let k = 0; k < STALL; k++) {
    loops.push(
      (async () => {
        while (running()) {
          const st = openStream(target, pick());
          stats.stalls++;
          await sleep(5_000 + Math.random() * 15_000);
          st.close();
        }
      })(),
    );
  }
  loops.push(
    (async () => {
      while (running()) {
        const st = openStream(target, pick());
        await new Promise<void>((r) => {
          st.call.once('data', () => r());
          setTimeout(r, 5000);
        });
        st.close();
        stats.leavers++;
        await sleep(200);
      }
    })(),
  );
  // HTTP polling.
  loops.push(
    (async () => {
      for (let i = 0; running(); i++) {
        await get('/api/proxies');
        await get(`/api/proxies/${encodeURIComponent(proxies[i % Math.max(1, proxies.length)]?.id ?? 'x')}`);
        await get('/api/errors');
        await sleep(500);
      }
    })(),
  );

  const ticker = setInterval(() => {
    console.log(
      `soak: ${Math.round((deadline - Date.now()) / 1000)} s left — pushes ${stats.pushes}, SSE events ${stats.sseEvents}, errors ${stats.errors.length}`,
    );
  }, 30_000);
  await Promise.all(loops);
  clearInterval(ticker);
  // Every ACKing client got the final edit (pushes never stalled behind the stuck readers).
  await sleep(5_000);
  for (let k = 0; k < GOOD; k++) {
    if ((lastPush.get(k) ?? 0) < lastEditAt) error(`ACKing client ${k} did not receive the push for the last edit`);
  }
  const end = await memory();
  for (const st of good) st.close();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });

  console.log(`soak: start  heap ${mb(start.heapUsed)}  rss ${mb(start.rss)}`);
  console.log(`soak: end    heap ${mb(end.heapUsed)}  rss ${mb(end.rss)}`);
  console.log(
    `soak: ${stats.edits} file edits (${stats.brokenEdits} broken), ${stats.pushes} pushes delivered to ${GOOD} ACKing clients, ` +
      `${stats.nacks} NACKs sent, ${stats.stalls} stalled streams, ${stats.leavers} leavers, ${stats.sseEvents} SSE events ` +
      `(${stats.sseReconnects} reconnects), ${stats.http} HTTP requests, ${stats.errors.length} errors`,
  );
  for (const e of stats.errors.slice(0, 20)) console.log(`soak: error: ${e}`);
  process.exitCode = stats.errors.length ? 1 : 0;
}

main().then(
  () => process.exit(),
  (e: unknown) => {
    console.error(`soak: ${(e as Error).stack ?? e}`);
    process.exit(1);
  },
);
