// Sandbox apply (issue #9 §4) seen by a connected real @grpc/grpc-js-xds client: the demo applier's overlay
// source over the live store → snapshot → ADS push → the client's RDS ACK → real RPCs to loopback echo
// backends split as the applied weights say; reset → the old split again. Nothing of meshscope is mocked
// (set up as grpcMesh.test.ts: the TEST_ONLY bootstrap option per channel).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as grpcXds from '@grpc/grpc-js-xds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoApplier } from '../../api/apply/demo';
import { applySandbox, resetSandbox } from '../../api/sandboxApply';
import { TYPE } from '../../envoy/typeUrls';
import { createRuntimeForTest, type MeshscopeRuntime } from '../../runtime';
import { countCalls, startEchoBackend, waitFor, type EchoBackend } from '../testing/echo';
import { rawInputs, reviewsMesh, virtualServiceYaml } from './reviewsMesh';

const TARGET = 'reviews.default.svc.cluster.local:9080';
const NODE_ID = 'sidecar~127.0.0.1~ratings-grpc.default~default.svc.cluster.local';

let dir: string;
let rt: MeshscopeRuntime;
let client: grpc.Client;
const echo: EchoBackend[] = [];
const ctx = () => ({ applier: new DemoApplier(rt.store), allowApply: false, token: 'demo-token' });
let apply: ReturnType<typeof ctx>;

const rds = () =>
  rt
    .adsConnections()
    .find((c) => c.client.nodeId === NODE_ID)
    ?.types.find((t) => t.typeUrl === TYPE.route);
const rdsAcked = (v: string) => rds()?.state === 'SYNCED' && rds()?.ackedVersion === v;

beforeAll(async () => {
  grpcXds.register();
  for (const name of ['reviews-v1', 'reviews-v2']) echo.push(await startEchoBackend(name));
  const backends = [
    { pod: 'reviews-v1', version: 'v1' as const, port: echo[0]!.port },
    { pod: 'reviews-v2', version: 'v2' as const, port: echo[1]!.port },
  ];
  dir = mkdtempSync(join(tmpdir(), 'meshscope-apply-e2e-'));
  rt = createRuntimeForTest({ config: [dir], xdsPort: 0 }, { log: () => undefined, debounceMs: 10, maxDebounceMs: 500 });
  await rt.ready;
  rt.store.replace('demo', rawInputs(reviewsMesh(backends, backends, 80, 20), 'reviews.yaml'));
  rt.store.flush();
  apply = ctx();
  await waitFor(() => rt.xds().state === 'listening', 'ADS listening');
  const xds = rt.xds();
  const bootstrap = {
    xds_servers: [
      { server_uri: `127.0.0.1:${xds.state === 'listening' ? xds.port : 0}`, channel_creds: [{ type: 'insecure' }], server_features: [] },
    ],
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

const share = (counts: Record<string, number>, who: string) => (counts[who] ?? 0) / Object.values(counts).reduce((a, b) => a + b, 0);

describe('sandbox apply → ADS → @grpc/grpc-js-xds', () => {
  it('80/20 before (1,000 RPCs, ±5 points)', async () => {
    const counts = await countCalls(client, 1000);
    expect(share(counts, 'reviews-v1')).toBeGreaterThanOrEqual(0.75);
    expect(share(counts, 'reviews-v1')).toBeLessThanOrEqual(0.85);
  });

  it('apply a 50/50 split: the client ACKs the new route config and the RPCs split 50/50 (±6 points)', async () => {
    const res = await applySandbox(apply, 'Bearer demo-token', { draft: virtualServiceYaml(50, 50), confirm: true });
    expect(res).toMatchObject({ status: 200, body: { applied: true } });
    const v = String(rt.snapshot().version);
    await waitFor(() => rdsAcked(v), 'RDS ACK of the applied weights');
    const counts = await countCalls(client, 1000);
    expect(share(counts, 'reviews-v1')).toBeGreaterThanOrEqual(0.44);
    expect(share(counts, 'reviews-v1')).toBeLessThanOrEqual(0.56);
  });

  it('reset: back to 80/20', async () => {
    expect((await resetSandbox(apply, 'Bearer demo-token')).status).toBe(200);
    const v = String(rt.snapshot().version);
    await waitFor(() => rdsAcked(v), 'RDS ACK after reset');
    const counts = await countCalls(client, 1000);
    expect(share(counts, 'reviews-v1')).toBeGreaterThanOrEqual(0.75);
    expect(share(counts, 'reviews-v1')).toBeLessThanOrEqual(0.85);
  });
});
