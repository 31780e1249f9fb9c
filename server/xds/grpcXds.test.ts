// Integration with the gRPC team's real xDS client (@grpc/grpc-js-xds 1.14.1): our ADS server drives a
// proxyless gRPC channel `xds:///reviews.default.svc.cluster.local:9080` to two loopback echo backends.
// Client behaviour relied on is documented in ../shared/reference/grpc-xds-client-notes.md.
import * as grpc from '@grpc/grpc-js';
import * as grpcXds from '@grpc/grpc-js-xds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { AdsServer } from './server';
import { apiListener, edsCluster, loadAssignment, weightedRoute } from './testing/fixtures';
import { SwitchableGenerator } from './testing/fixtures';
import { countCalls, startEchoBackend, waitFor, type EchoBackend } from './testing/echo';
import type { ConnectionStatus } from './types';

const TARGET = 'reviews.default.svc.cluster.local:9080';
const NODE_ID = 'sidecar~127.0.0.1~reviews-client.default~default.svc.cluster.local';

let v1: EchoBackend;
let v2: EchoBackend;
let ads: AdsServer;
let adsPort: number;
let client: grpc.Client;
const gen = new SwitchableGenerator();
const logs: string[] = [];

function config(version: string, w1: number, w2: number, opts: { v2Static?: boolean } = {}) {
  gen.set(version, [
    apiListener(TARGET, 'reviews-route'),
    weightedRoute(
      'reviews-route',
      [TARGET],
      [
        ['reviews-v1', w1],
        ['reviews-v2', w2],
      ],
    ),
    edsCluster('reviews-v1'),
    opts.v2Static ? edsCluster('reviews-v2', { type: 'STATIC' }) : edsCluster('reviews-v2'),
    loadAssignment('reviews-v1', [['127.0.0.1', v1.port]]),
    loadAssignment('reviews-v2', [['127.0.0.1', v2.port]]),
  ]);
}

const newServer = () => new AdsServer({ generator: gen, log: (l) => logs.push(l), debounceMs: 10, maxDebounceMs: 500 });
const conn = (): ConnectionStatus | undefined => ads.connections().find((c) => c.client.nodeId === NODE_ID);
const typeOf = (t: string) => conn()?.types.find((x) => x.typeUrl === t);
const synced = (t: string, version: string) => typeOf(t)?.state === 'SYNCED' && typeOf(t)?.ackedVersion === version;

beforeAll(async () => {
  grpcXds.register();
  v1 = await startEchoBackend('v1');
  v2 = await startEchoBackend('v2');
  config('1', 80, 20);
  ads = newServer();
  adsPort = await ads.start(0, '127.0.0.1');
  const bootstrap = {
    xds_servers: [{ server_uri: `127.0.0.1:${adsPort}`, channel_creds: [{ type: 'insecure' }], server_features: [] }],
    node: {
      id: NODE_ID,
      cluster: 'meshscope-test',
      locality: { region: 'local', zone: 'a' },
      metadata: { GENERATOR: 'grpc', NAMESPACE: 'default', CLUSTER_ID: 'Kubernetes' },
    },
  };
  client = new grpc.Client(`xds:///${TARGET}`, grpc.credentials.createInsecure(), {
    'grpc.TEST_ONLY_DO_NOT_USE_IN_PROD.xds_bootstrap_config': JSON.stringify(bootstrap),
  });
}, 30_000);

afterAll(async () => {
  client?.close();
  await ads?.stop();
  v1?.stop();
  v2?.stop();
});

describe('real grpc-js-xds client against the ADS server', () => {
  it('identifies the proxyless client and splits 1,000 RPCs 80/20 (±5 points)', async () => {
    const counts = await countCalls(client, 1000);
    expect((counts['v1'] ?? 0) + (counts['v2'] ?? 0)).toBe(1000);
    expect(counts['v1']).toBeGreaterThanOrEqual(750);
    expect(counts['v1']).toBeLessThanOrEqual(850);
    const c = conn()!;
    expect(c.client).toMatchObject({ flavour: 'grpc', proxyId: 'reviews-client.default', namespace: 'default', clusterId: 'Kubernetes' });
    // gRPC subscribes to every type by name (never wildcard).
    expect(c.types.find((t) => t.typeUrl === TYPE.cluster)?.subscribed).toEqual(['reviews-v1', 'reviews-v2']);
    for (const t of [TYPE.listener, TYPE.route, TYPE.cluster, TYPE.endpoint]) expect(typeOf(t)?.state).toBe('SYNCED');
  });

  it('a pushed weight change (20/80) shifts the split without restarting the client', async () => {
    config('2', 20, 80);
    ads.push({ proxies: 'all', reason: 'weights' });
    await waitFor(() => synced(TYPE.route, '2'), 'RDS v2 ACK');
    const counts = await countCalls(client, 1000);
    expect(counts['v2']).toBeGreaterThanOrEqual(750);
    expect(counts['v2']).toBeLessThanOrEqual(850);
  });

  it('NACK path: a STATIC cluster is rejected, recorded with the client text, not resent; next good config accepted', async () => {
    const ackedBefore = typeOf(TYPE.cluster)?.ackedVersion;
    expect(ackedBefore).toBeDefined();
    config('3', 20, 80, { v2Static: true });
    ads.push({ proxies: 'all', reason: 'bad cluster' });
    await waitFor(() => typeOf(TYPE.cluster)?.state === 'ERROR', 'CDS NACK');
    const cds = typeOf(TYPE.cluster)!;
    expect(cds.lastNack?.message).toContain('Unsupported type STATIC');
    expect(cds.lastNack?.version).toBe('3');
    expect(cds.ackedVersion).toBe(ackedBefore); // the client keeps (and reports) the last good config
    expect(logs.some((l) => l.includes('NACK CDS') && l.includes('Unsupported type STATIC'))).toBe(true);
    const sync = ads.syncz().find((x) => (x as { proxy: string }).proxy === 'reviews-client.default') as Record<string, unknown>;
    expect(sync['nacks']).toMatchObject({ cluster: { message: expect.stringContaining('STATIC') } });
    // The data plane keeps serving on the last good config.
    expect(Object.values(await countCalls(client, 50)).reduce((a, b) => a + b, 0)).toBe(50);

    // Same rejected content again under a new version: not resent.
    const pushesBefore = cds.pushCount;
    config('4', 20, 80, { v2Static: true });
    ads.push({ proxies: 'all', reason: 'unrelated' });
    await ads.flush();
    expect(typeOf(TYPE.cluster)?.pushCount).toBe(pushesBefore);
    expect(typeOf(TYPE.cluster)?.sentVersion).toBe('3');

    // A good config is sent and ACKed.
    config('5', 50, 50);
    ads.push({ proxies: 'all', reason: 'fixed' });
    await waitFor(() => synced(TYPE.cluster, '5') && synced(TYPE.route, '5'), 'CDS+RDS v5 ACK');
    const counts = await countCalls(client, 1000);
    expect(counts['v1']).toBeGreaterThanOrEqual(450);
    expect(counts['v1']).toBeLessThanOrEqual(550);
  });

  it('ADS killed and restarted while the client stays up: calls keep working, the client reconnects and converges', async () => {
    await ads.stop();
    expect(Object.values(await countCalls(client, 50)).reduce((a, b) => a + b, 0)).toBe(50);
    config('6', 100, 0);
    ads = newServer();
    expect(await ads.start(adsPort, '127.0.0.1')).toBe(adsPort);
    await waitFor(
      () => [TYPE.listener, TYPE.route, TYPE.cluster, TYPE.endpoint].every((t) => synced(t, '6')),
      'all four types SYNCED at v6 on the new server',
      30_000,
    );
    const counts = await countCalls(client, 200);
    expect(counts).toEqual({ v1: 200 });
  }, 45_000);
});
