// proxySync against the real ADS server on loopback: a real gRPC SotW stream ACKs CDS, then NACKs the
// next version; the handler reports the NACK text and rejected version beside the last good nonce
// (xDS protocol: a NACK carries error_detail and the last accepted version_info; istiod statusgen.go
// debugSyncStatus: SYNCED when the last sent nonce is acked).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { RawInput } from '../sources/types';
import { edsCluster } from '../xds/testing/fixtures';
import { SIDECAR, startHarness, type Harness } from '../xds/testing/harness';
import { proxySync, type ProxySyncResult } from './proxySync';
import type { ApiContext, SyncStatus } from './types';

const origin = { source: 'file' as const, file: 'test.yaml' };
const pod: RawInput = {
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'productpage-v1-abc', namespace: 'default', labels: { app: 'productpage' } },
    spec: {
      containers: [
        { name: 'app', image: 'x' },
        { name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'sidecar'] },
      ],
    },
    status: { podIP: '10.0.0.1', phase: 'Running' },
  },
  origin: { ...origin, doc: 0 },
};
const snapshot = buildSnapshot([pod], { version: 1 });
const ID = 'productpage-v1-abc.default';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.gen.set('v1', [edsCluster('c1')]);
});
afterEach(async () => {
  await h.close();
});

const ctx = (): ApiContext => ({ snapshot, options: DEFAULT_OPTIONS, sync: () => h.server.syncz() as SyncStatus[] });
const cds = (r: ProxySyncResult) => r.connections[0]!.types.find((t) => t.type === 'cluster')!;

describe('proxySync with a real ADS stream', () => {
  it('the fixture pod is the proxy the test client connects as', () => {
    expect(snapshot.proxiesById.has(ID)).toBe(true);
    expect(SIDECAR.id).toContain(ID);
  });

  it('ACK → SYNCED; NACK → ERROR with the text and the rejected version, acked nonce kept', async () => {
    const s = h.client.sotw(SIDECAR);
    const r1 = await s.request({ typeUrl: TYPE.cluster });
    s.ack(r1);
    const state = () => cds(proxySync(ctx(), ID).body as ProxySyncResult).state;
    await expect.poll(state).toBe('SYNCED');
    let res = proxySync(ctx(), ID).body as ProxySyncResult;
    expect(res.connected).toBe(true);
    expect(cds(res)).toMatchObject({ state: 'SYNCED', sentNonce: r1.nonce, ackedNonce: r1.nonce });

    h.gen.set('v2', [edsCluster('c1'), edsCluster('c2', { type: 'STATIC' })]);
    h.server.push({ proxies: 'all', reason: 'bad config' });
    const r2 = await s.next();
    s.nack(r2, 'Cluster message validation failed: [Unsupported type STATIC]', 'v1');
    await expect.poll(state).toBe('ERROR');
    res = proxySync(ctx(), ID).body as ProxySyncResult;
    expect(cds(res)).toMatchObject({ state: 'ERROR', sentNonce: r2.nonce, ackedNonce: r1.nonce });
    expect(cds(res).nack).toMatchObject({ nonce: r2.nonce, version: 'v2', message: expect.stringContaining('Unsupported type STATIC') });

    // From the server's connection statuses: the same, plus versions — v2 rejected beside v1 last good.
    const full = proxySync(ctx(), ID, h.server.connections()).body as ProxySyncResult;
    expect(cds(full)).toMatchObject({ state: 'ERROR', sentVersion: 'v2', ackedVersion: 'v1', sentNonce: r2.nonce, ackedNonce: r1.nonce });
    expect(cds(full).nack).toMatchObject({ version: 'v2', message: expect.stringContaining('Unsupported type STATIC') });
    expect(proxySync(ctx(), ID, []).body).toEqual({ proxy: ID, connected: false, connections: [] });
  });
});
