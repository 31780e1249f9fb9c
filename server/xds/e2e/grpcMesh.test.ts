// Acceptance (issue 4): the real gRPC xDS client (@grpc/grpc-js-xds 1.14.1, SotW) against meshscope's
// runtime — store fed from Kubernetes/Istio YAML → translator (grpcgen) → ADS server — routing real RPCs to
// loopback echo backends. Nothing of meshscope is mocked; the client is configured per channel
// (grpc-xds-client-notes.md: the TEST_ONLY bootstrap option) and the server force-stopped at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as grpcXds from '@grpc/grpc-js-xds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adsz, type AdsClientsJson } from '../../api/adsz';
import { TYPE } from '../../envoy/typeUrls';
import { createRuntimeForTest, type MeshscopeRuntime } from '../../runtime';
import { ECHO_PATH, startEchoBackend, waitFor, type EchoBackend } from '../testing/echo';
import type { ConnectionStatus } from '../types';
import { destinationRuleYaml, endpointSliceYaml, rawInputs, reviewsMesh, virtualServiceYaml, type Backend } from './reviewsMesh';

const TARGET = 'reviews.default.svc.cluster.local:9080';
const NODE_ID = 'sidecar~127.0.0.1~ratings-grpc.default~default.svc.cluster.local';
const ALL = [TYPE.listener, TYPE.route, TYPE.cluster, TYPE.endpoint];

let dir: string;
let rt: MeshscopeRuntime;
let client: grpc.Client;
const echo: EchoBackend[] = [];
let backends: Backend[];
const logs: string[] = [];

const raw = (b: Buffer) => b;
function call(md?: Record<string, string>): Promise<string> {
  const meta = new grpc.Metadata();
  for (const [k, v] of Object.entries(md ?? {})) meta.set(k, v);
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(ECHO_PATH, raw, raw, Buffer.from('ping'), meta, { deadline: Date.now() + 5000 }, (err, res) =>
      err ? reject(err) : resolve(res!.toString()),
    ),
  );
}
async function count(n: number, md?: Record<string, string>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const who = await call(md);
      counts[who] = (counts[who] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return counts;
}

const conn = (): ConnectionStatus | undefined => rt.adsConnections().find((c) => c.client.nodeId === NODE_ID);
const typeOf = (t: string) => conn()?.types.find((x) => x.typeUrl === t);
const version = () => String(rt.snapshot().version);
const synced = (types: string[], v: string) => types.every((t) => typeOf(t)?.state === 'SYNCED' && typeOf(t)?.ackedVersion === v);
const pushes = () => Object.fromEntries(ALL.map((t) => [t, typeOf(t)?.pushCount ?? 0]));

beforeAll(async () => {
  grpcXds.register();
  for (const name of ['reviews-v1', 'reviews-v2', 'reviews-v2b']) echo.push(await startEchoBackend(name));
  backends = [
    { pod: 'reviews-v1', version: 'v1', port: echo[0]!.port },
    { pod: 'reviews-v2', version: 'v2', port: echo[1]!.port },
    { pod: 'reviews-v2b', version: 'v2', port: echo[2]!.port },
  ];
  dir = mkdtempSync(join(tmpdir(), 'meshscope-ads-e2e-'));
  rt = createRuntimeForTest({ config: [dir], xdsPort: 0 }, { log: (l) => logs.push(l), debounceMs: 10, maxDebounceMs: 500 });
  await rt.ready;
  // v2b's pod exists but is not in any EndpointSlice yet (not ready): it gets no calls until it is.
  rt.store.replace('test', rawInputs(reviewsMesh(backends, backends.slice(0, 2), 80, 20), 'reviews.yaml'));
  rt.store.flush();
  await waitFor(() => rt.xds().state === 'listening', 'ADS listening');
  const xds = rt.xds();
  const port = xds.state === 'listening' ? xds.port : 0;
  const bootstrap = {
    xds_servers: [{ server_uri: `127.0.0.1:${port}`, channel_creds: [{ type: 'insecure' }], server_features: [] }],
    node: { id: NODE_ID, cluster: 'meshscope-test', locality: {}, metadata: { GENERATOR: 'grpc', NAMESPACE: 'default' } },
  };
  client = new grpc.Client(`xds:///${TARGET}`, grpc.credentials.createInsecure(), {
    'grpc.TEST_ONLY_DO_NOT_USE_IN_PROD.xds_bootstrap_config': JSON.stringify(bootstrap),
  });
}, 30_000);

afterAll(async () => {
  client?.close();
  await rt?.stop();
  for (const e of echo) e.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('live ADS path: store → grpcgen → ADS → @grpc/grpc-js-xds', () => {
  it('splits 1,000 RPCs 80/20 (±5 points) as the VirtualService weights say; every type ACKed', async () => {
    const counts = await count(1000);
    expect((counts['reviews-v1'] ?? 0) + (counts['reviews-v2'] ?? 0)).toBe(1000);
    expect(counts['reviews-v1']).toBeGreaterThanOrEqual(750);
    expect(counts['reviews-v1']).toBeLessThanOrEqual(850);
    const c = conn()!;
    expect(c.client.flavour).toBe('grpc');
    // grpcgen naming: listener = the target, RDS = the default cluster key, CDS = subset clusters.
    expect(c.types.find((t) => t.typeUrl === TYPE.listener)?.subscribed).toEqual([TARGET]);
    expect(c.types.find((t) => t.typeUrl === TYPE.route)?.subscribed).toEqual(['outbound|9080||reviews.default.svc.cluster.local']);
    expect(c.types.find((t) => t.typeUrl === TYPE.cluster)?.subscribed).toEqual([
      'outbound|9080|v1|reviews.default.svc.cluster.local',
      'outbound|9080|v2|reviews.default.svc.cluster.local',
    ]);
    await waitFor(() => synced(ALL, version()), 'all four types SYNCED');
    // /debug/adsz lists the client with its watches.
    const body = adsz(rt.adsConnections(), 'ratings-grpc.default').body as AdsClientsJson;
    expect(body.totalClients).toBe(1);
    expect(body.clients[0]).toMatchObject({ proxy: 'ratings-grpc.default', flavour: 'grpc', mode: 'sotw' });
    expect(body.clients[0]?.watches[TYPE.listener]).toEqual([TARGET]);
    expect((adsz(rt.adsConnections(), 'someone-else.default').body as AdsClientsJson).totalClients).toBe(0);
    expect(logs.some((l) => l.includes('new SotW connection') && l.includes('ratings-grpc.default'))).toBe(true);
  });

  it('a header-match route sends only matching calls to its subset (end-user: jason → v2)', async () => {
    expect(await count(100, { 'end-user': 'jason' })).toEqual({ 'reviews-v2': 100 });
    const others = await count(200, { 'end-user': 'mallory' });
    expect(others['reviews-v1']).toBeGreaterThan(100); // still the 80/20 split
  });

  it('fault injection from the VirtualService: x-fault: abort gets HTTP 503 → gRPC UNAVAILABLE, no backend called', async () => {
    // grpc-js-xds maps an HTTP abort status to gRPC as the HTTP/gRPC status mapping says (503 → 14 UNAVAILABLE).
    await expect(call({ 'x-fault': 'abort' })).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });

  it('a weight change in the store (20/80) shifts the split without restarting the client', async () => {
    const before = pushes();
    rt.store.upsert('test', rawInputs(virtualServiceYaml(20, 80), 'reviews.yaml')[0]!);
    rt.store.flush();
    const v = version();
    await waitFor(() => synced([TYPE.route], v), 'RDS ACK of the new weights');
    const counts = await count(1000);
    expect(counts['reviews-v2']).toBeGreaterThanOrEqual(750);
    expect(counts['reviews-v2']).toBeLessThanOrEqual(850);
    // Only the route config changed for this client: nothing else was re-sent.
    const after = pushes();
    expect(after[TYPE.route]).toBe(before[TYPE.route]! + 1);
    for (const t of [TYPE.listener, TYPE.cluster, TYPE.endpoint]) expect(after[t]).toBe(before[t]);
  });

  it('an endpoint added to subset v2 starts receiving calls through an EDS-only push', async () => {
    const before = pushes();
    const edsAcked = typeOf(TYPE.endpoint)?.ackedVersion;
    rt.store.upsert('test', rawInputs(endpointSliceYaml(backends[2]!), 'reviews.yaml')[0]!);
    rt.store.flush();
    const v = version();
    await waitFor(() => typeOf(TYPE.endpoint)?.ackedVersion === v && typeOf(TYPE.endpoint)?.state === 'SYNCED', 'EDS ACK');
    expect(v).not.toBe(edsAcked);
    const after = pushes();
    expect(after[TYPE.endpoint]).toBeGreaterThan(before[TYPE.endpoint]!);
    for (const t of [TYPE.listener, TYPE.route, TYPE.cluster]) expect(after[t]).toBe(before[t]);
    // An incremental EDS push (istiod eds.go partial push): only subset v2's CLA was sent, not v1's.
    expect(typeOf(TYPE.endpoint)).toMatchObject({ subscribed: expect.arrayContaining([expect.stringContaining('|v1|')]), sentCount: 1 });
    // v2 now round-robins over two endpoints: both get calls (jason → v2 only).
    const counts = await count(200, { 'end-user': 'jason' });
    expect(Object.keys(counts).sort()).toEqual(['reviews-v2', 'reviews-v2b']);
    expect(counts['reviews-v2b']).toBeGreaterThan(50);
    // The client kept v1's CLA, which the push left out (EDS is not full state in SotW): v1 still gets its share.
    const split = await count(300);
    expect(Object.keys(split).sort()).toEqual(['reviews-v1', 'reviews-v2', 'reviews-v2b']);
    expect(split['reviews-v1']).toBeGreaterThan(20);
  });

  it('NACK path: a translated route gRPC rejects is recorded with the client text in syncz, not resent; the next good config is accepted', async () => {
    const goodRds = typeOf(TYPE.route)!.ackedVersion;
    rt.store.upsert('test', rawInputs(virtualServiceYaml(20, 80, { redirect: true }), 'reviews.yaml')[0]!);
    rt.store.flush();
    const bad = version();
    await waitFor(() => typeOf(TYPE.route)?.state === 'ERROR', 'RDS NACK');
    const rds = typeOf(TYPE.route)!;
    expect(rds.lastNack?.version).toBe(bad);
    expect(rds.lastNack?.message).toContain('unsupported action: redirect');
    expect(rds.ackedVersion).toBe(goodRds); // the client keeps the last good route config
    const sync = rt
      .context()
      .sync?.()
      .find((x) => x.proxy === 'ratings-grpc.default') as Record<string, unknown> | undefined;
    expect(sync?.['nacks']).toMatchObject({ route: { message: expect.stringContaining('unsupported action: redirect') } });
    expect(logs.some((l) => l.includes('NACK RDS') && l.includes('ratings-grpc.default'))).toBe(true);
    // The data plane keeps serving the last good routes.
    expect(Object.values(await count(50)).reduce((a, b) => a + b, 0)).toBe(50);

    // An unrelated store change: the rejected route config is not resent.
    const pushed = rds.pushCount;
    rt.store.upsert(
      'test',
      rawInputs(destinationRuleYaml.replace('name: reviews,', 'name: reviews, labels: {touched: "1"},'), 'reviews.yaml')[0]!,
    );
    rt.store.flush();
    await rt.ads.flush();
    expect(typeOf(TYPE.route)?.pushCount).toBe(pushed);
    expect(typeOf(TYPE.route)?.sentVersion).toBe(bad);

    // The fix is sent and ACKed; traffic follows it (50/50).
    rt.store.upsert('test', rawInputs(virtualServiceYaml(50, 50), 'reviews.yaml')[0]!);
    rt.store.flush();
    const good = version();
    await waitFor(() => synced([TYPE.route], good), 'RDS ACK after the fix');
    const counts = await count(1000);
    expect(counts['reviews-v1']).toBeGreaterThanOrEqual(450);
    expect(counts['reviews-v1']).toBeLessThanOrEqual(550);
  });
});
