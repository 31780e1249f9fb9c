import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { namesOf, type SotwTestStream } from './testing/adsTestClient';
import { apiListener, edsCluster, loadAssignment, weightedRoute } from './testing/fixtures';
import { SIDECAR, startHarness, type Harness } from './testing/harness';
import type { ConnectionStatus, TypeStatus } from './types';

// Protocol rules under test: istiod pkg/xds/server.go ShouldRespond, pilot/pkg/xds/ads.go (pushes, push
// order), and the xDS protocol (envoy api docs "xDS REST and gRPC protocol": wildcard LDS/CDS, ACK/NACK,
// "resources not present in a SotW LDS/CDS response are deleted").

const base = () => [
  edsCluster('c1'),
  edsCluster('c2'),
  loadAssignment('c1', [['10.0.0.1', 80]]),
  loadAssignment('c2', [['10.0.0.2', 80]]),
  apiListener('l1:80', 'r1'),
  weightedRoute(
    'r1',
    ['*'],
    [
      ['c1', 80],
      ['c2', 20],
    ],
  ),
  weightedRoute('r2', ['*'], [['c2', 100]]),
];

let h: Harness;
let s: SotwTestStream;
beforeEach(async () => {
  h = await startHarness();
  h.gen.set('v1', base());
  s = h.client.sotw(SIDECAR);
});
afterEach(async () => {
  await h.close();
});

const typeStatus = (typeUrl: string): TypeStatus | undefined => {
  const c: ConnectionStatus | undefined = h.server.connections()[0];
  return c?.types.find((t) => t.typeUrl === typeUrl);
};

/** Proves nothing else was sent first: an initial request for `typeUrl` must be answered next. */
async function barrier(typeUrl: string = TYPE.route, names = ['r2']): Promise<void> {
  const r = await s.request({ typeUrl, resourceNames: names });
  expect(r.typeUrl).toBe(typeUrl);
}

describe('SotW ADS', () => {
  it('wildcard CDS (no names) gets every cluster, with version and nonce', async () => {
    const r = await s.request({ typeUrl: TYPE.cluster });
    expect(r.typeUrl).toBe(TYPE.cluster);
    expect(r.versionInfo).toBe('v1');
    expect(r.nonce).not.toBe('');
    expect(namesOf(r)).toEqual(['c1', 'c2']);
    expect(typeStatus(TYPE.cluster)).toMatchObject({ subscribed: '*', sentVersion: 'v1', state: 'STALE' });
  });

  it('named subscriptions (EDS; CDS/LDS by name as gRPC clients do) get exactly those names that exist', async () => {
    expect(namesOf(await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c2', 'missing'] }))).toEqual(['c2']);
    expect(namesOf(await s.request({ typeUrl: TYPE.cluster, resourceNames: ['c2'] }))).toEqual(['c2']);
    expect(namesOf(await s.request({ typeUrl: TYPE.listener, resourceNames: ['l1:80'] }))).toEqual(['l1:80']);
  });

  it('ACK is recorded and not answered; status becomes SYNCED', async () => {
    const r = await s.request({ typeUrl: TYPE.cluster });
    s.ack(r);
    await barrier();
    expect(typeStatus(TYPE.cluster)).toMatchObject({ ackedVersion: 'v1', ackedNonce: r.nonce, state: 'SYNCED' });
    expect(s.buffered).toBe(0);
  });

  it('ACK with a changed name list is answered with the new set (resubscription)', async () => {
    const r = await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] });
    s.ack(r, ['c1', 'c2']);
    const r2 = await s.next();
    expect(r2.typeUrl).toBe(TYPE.endpoint);
    expect(namesOf(r2)).toEqual(['c1', 'c2']);
  });

  it('a push re-sends every subscribed LDS/CDS resource, not only the changed one', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    h.gen.set('v2', [...base().filter((r) => r.name !== 'c2' || r.typeUrl !== TYPE.cluster), edsCluster('c2', { connectTimeout: '3s' })]);
    h.server.push({ proxies: 'all', reason: 'test' });
    const r = await s.next();
    expect(r.versionInfo).toBe('v2');
    expect(namesOf(r)).toEqual(['c1', 'c2']);
  });

  it('NACK: recorded with the client text, version not resent, next good config sent', async () => {
    const r1 = await s.request({ typeUrl: TYPE.cluster });
    s.ack(r1);
    // The ACK must be handled before the push below sends a new nonce (else it is stale): requests are in order.
    await barrier();
    const bad = [...base().filter((r) => r.typeUrl !== TYPE.cluster), edsCluster('c1'), edsCluster('c2', { type: 'STATIC' })];
    h.gen.set('v2', bad);
    h.server.push({ proxies: 'all', reason: 'bad config' });
    const r2 = await s.next();
    expect(r2.versionInfo).toBe('v2');
    s.nack(r2, 'Cluster message validation failed: [Unsupported type STATIC]', 'v1');
    await barrier();
    expect(typeStatus(TYPE.cluster)).toMatchObject({ state: 'ERROR', ackedVersion: 'v1', sentVersion: 'v2' });
    expect(typeStatus(TYPE.cluster)?.lastNack).toMatchObject({
      nonce: r2.nonce,
      version: 'v2',
      code: 14,
      message: expect.stringContaining('STATIC'),
    });
    expect(h.logs.some((l) => l.includes('NACK CDS') && l.includes('Unsupported type STATIC'))).toBe(true);

    // Same (rejected) content under a new global version: not resent.
    h.gen.set('v3', bad);
    h.server.push({ proxies: 'all', reason: 'unrelated' });
    await h.server.flush();
    await barrier(TYPE.endpoint, ['c1']);
    expect(typeStatus(TYPE.cluster)?.sentVersion).toBe('v2');

    // New good config: sent and ACKed.
    h.gen.set('v4', base());
    h.server.push({ proxies: 'all', reason: 'fixed' });
    const r4 = await s.next();
    expect(r4.typeUrl).toBe(TYPE.cluster);
    expect(r4.versionInfo).toBe('v4');
    s.ack(r4);
    await barrier(TYPE.route, ['r1']);
    expect(typeStatus(TYPE.cluster)).toMatchObject({ state: 'SYNCED', ackedVersion: 'v4' });
  });

  it('a stale nonce (ACK of an older response) is ignored, even with a new name list', async () => {
    const r1 = await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] });
    const r2 = await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] }); // second request, empty nonce
    expect(r2.nonce).not.toBe(r1.nonce);
    s.ack(r1, ['c1', 'c2']); // stale
    await barrier();
    expect(typeStatus(TYPE.endpoint)).toMatchObject({ sentNonce: r2.nonce, state: 'STALE', subscribed: ['c1'] });
    s.ack(r2, ['c1']);
    await barrier(TYPE.route, ['r1']);
    expect(typeStatus(TYPE.endpoint)?.state).toBe('SYNCED');
  });

  it('reconnect in the order LDS, CDS, EDS, RDS with old versions and empty nonces: each answered in full', async () => {
    const order: Array<[string, string[]]> = [
      [TYPE.listener, ['l1:80']],
      [TYPE.cluster, ['c1', 'c2']],
      [TYPE.endpoint, ['c1', 'c2']],
      [TYPE.route, ['r1']],
    ];
    // First life of the client: LDS → RDS → CDS → EDS, all ACKed.
    for (const i of [0, 3, 1, 2]) {
      const [typeUrl, names] = order[i]!;
      s.ack(await s.request({ typeUrl, resourceNames: names }), names);
    }
    s.cancel();
    await s.ended;
    h.gen.set('v2', base());
    // Reconnect (grpc-js-xds order after a server restart): old version_info, empty nonce, any type order.
    const s2 = h.client.sotw(SIDECAR);
    for (const [typeUrl, names] of order) {
      const r = await s2.request({ typeUrl, resourceNames: names, versionInfo: 'v1' });
      expect(r.typeUrl).toBe(typeUrl);
      expect(r.versionInfo).toBe('v2');
      expect(namesOf(r)).toEqual(names);
      s2.ack(r, names);
    }
    expect((await s2.request({ typeUrl: TYPE.route, resourceNames: ['r2'] })).typeUrl).toBe(TYPE.route);
    const conns = h.server.connections();
    expect(conns).toHaveLength(1);
    expect(conns[0]!.types.map((t) => [t.typeUrl, t.state])).toEqual([
      [TYPE.cluster, 'SYNCED'],
      [TYPE.endpoint, 'SYNCED'],
      [TYPE.listener, 'SYNCED'],
      [TYPE.route, 'STALE'],
    ]);
  });

  it('unsubscribe (named type with no names): later pushes skip that type', async () => {
    s.ack(await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] }));
    s.send({ typeUrl: TYPE.endpoint, resourceNames: [], responseNonce: typeStatus(TYPE.endpoint)!.sentNonce! });
    await barrier();
    h.gen.set('v2', [...base().filter((r) => r.typeUrl !== TYPE.endpoint), loadAssignment('c1', [['10.9.9.9', 80]])]);
    h.server.push({ proxies: 'all', reason: 'endpoints' });
    await h.server.flush();
    await barrier(TYPE.cluster, []);
    expect(typeStatus(TYPE.endpoint)?.subscribed).toEqual([]);
  });

  it('pushes are filtered by type (EDS-only push) and by proxy', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    s.ack(await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] }));
    h.gen.set('v2', [
      ...base().filter((r) => r.typeUrl !== TYPE.endpoint && r.typeUrl !== TYPE.cluster),
      edsCluster('c1', { connectTimeout: '2s' }),
      edsCluster('c2'),
      loadAssignment('c1', [['10.9.9.9', 80]]),
      loadAssignment('c2', [['10.0.0.2', 80]]),
    ]);
    h.server.push({ proxies: new Set(['someone-else.default']), reason: 'other proxy' });
    await h.server.flush(); // not merged with the next one (merging would make it a full push to both)
    h.server.push({ proxies: new Set(['productpage-v1-abc.default']), types: new Set([TYPE.endpoint]), reason: 'eds' });
    const r = await s.next();
    expect(r.typeUrl).toBe(TYPE.endpoint);
    expect(r.versionInfo).toBe('v2');
    await barrier(); // no CDS response before the barrier's
  });

  it('pushes within the debounce window are merged into one response per connection (istiod debounce)', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    const before = typeStatus(TYPE.cluster)!.pushCount;
    for (let i = 2; i <= 6; i++) {
      h.gen.set(`v${i}`, [
        ...base().filter((r) => r.typeUrl !== TYPE.cluster),
        edsCluster('c1', { connectTimeout: `${i}s` }),
        edsCluster('c2'),
      ]);
      h.server.push({ proxies: new Set(['productpage-v1-abc.default']), reason: `change ${i}` });
    }
    const r = await s.next();
    expect(r.versionInfo).toBe('v6');
    await barrier();
    expect(typeStatus(TYPE.cluster)!.pushCount).toBe(before + 1);
  });

  it('stop() then start() again on the same instance serves and pushes', async () => {
    await h.server.stop();
    const port = await h.server.start(0, '127.0.0.1');
    const { AdsTestClient } = await import('./testing/adsTestClient');
    const c2 = new AdsTestClient(port);
    try {
      const s2 = c2.sotw(SIDECAR);
      s2.ack(await s2.request({ typeUrl: TYPE.cluster }));
      h.gen.set('v2', [...base().filter((r) => r.typeUrl !== TYPE.cluster), edsCluster('c1', { connectTimeout: '9s' }), edsCluster('c2')]);
      h.server.push({ proxies: 'all', reason: 'after restart' });
      expect((await s2.next()).versionInfo).toBe('v2');
    } finally {
      c2.close();
    }
  });

  it('a response over maxResponseBytes is never sent: logged, type ERROR, stream kept', async () => {
    await h.close();
    h = await startHarness({ maxResponseBytes: 300 });
    h.gen.set('v1', [...base(), ...Array.from({ length: 20 }, (_, i) => edsCluster(`big-${i}`))]);
    s = h.client.sotw(SIDECAR);
    s.send({ typeUrl: TYPE.cluster });
    const r = await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] });
    expect(r.typeUrl).toBe(TYPE.endpoint); // CDS was refused, the stream still works
    expect(typeStatus(TYPE.cluster)?.state).toBe('ERROR');
    expect(typeStatus(TYPE.cluster)?.lastError?.message).toMatch(/exceeds maxResponseBytes 300/);
    expect(h.logs.some((l) => l.includes('ERROR') && l.includes('maxResponseBytes'))).toBe(true);
  });

  it('a generator that does not know the client yet sends nothing; a later push does', async () => {
    h.gen.current = undefined;
    s.send({ typeUrl: TYPE.cluster });
    await h.server.flush();
    h.gen.set('v1', base());
    h.server.push({ proxies: 'all', reason: 'proxy appeared' });
    const r = await s.next();
    expect(namesOf(r)).toEqual(['c1', 'c2']);
  });

  it('the first request must carry the node (INVALID_ARGUMENT otherwise)', async () => {
    const raw = h.client.sotw(SIDECAR);
    (raw as unknown as { nodeSent: boolean }).nodeSent = true;
    raw.send({ typeUrl: TYPE.cluster });
    const end = await raw.ended;
    expect(end.code).toBe(3);
  });

  it('connect / disconnect are logged; closed streams leave no connection; syncz has istiod fields', async () => {
    const r = await s.request({ typeUrl: TYPE.cluster });
    s.ack(r);
    await barrier();
    const [sync] = h.server.syncz() as Array<Record<string, unknown>>;
    expect(sync).toMatchObject({
      proxy: 'productpage-v1-abc.default',
      proxy_type: 'sidecar',
      cluster_id: 'Kubernetes',
      cluster_sent: r.nonce,
      cluster_acked: r.nonce,
    });
    expect(sync!['sync']).toMatchObject({ cluster: 'SYNCED', listener: 'NOT SENT', route: 'STALE', endpoint: 'NOT SENT' });
    expect(h.logs.some((l) => l.startsWith('ADS: new SotW connection sidecar~10.0.0.1~productpage-v1-abc.default'))).toBe(true);
    s.end();
    await s.ended;
    await new Promise((res) => setTimeout(res, 20));
    expect(h.server.connections()).toEqual([]);
    expect(h.logs.some((l) => l.includes('closed'))).toBe(true);
  });
});
