// Issue 14 item 7: ADS limits, each against a real loopback stream. Rules checked against istiod:
// pilot/pkg/xds/ads.go receive (empty node id → InvalidArgument "missing node information"),
// initProxyMetadata / pilot/pkg/model/context.go ParseServiceNodeWithMetadata (4 parts, application node
// type, a valid IP, else InvalidArgument), pilot/pkg/features/tuning.go ISTIO_GPRC_MAXRECVMSGSIZE (4 MiB).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import type { NodeInit, SotwTestStream } from './testing/adsTestClient';
import { edsCluster } from './testing/fixtures';
import { SIDECAR, startHarness, type Harness } from './testing/harness';
import { DEFAULT_LIMITS } from './limits';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.gen.set('v1', [edsCluster('c1'), edsCluster('c2')]);
});
afterEach(async () => {
  await h.close();
});

/** Sends one CDS request on a new stream for `node` and returns how the stream ended. */
async function refused(node: NodeInit) {
  const s = h.client.sotw(node);
  s.send({ typeUrl: TYPE.cluster });
  return s.ended;
}

describe('node identity', () => {
  it('an empty node id is INVALID_ARGUMENT "missing node information" (istiod ads.go), not a silent hang', async () => {
    const end = await refused({ id: '' });
    expect(end.code).toBe(3);
    expect(end.details).toMatch(/missing node information/);
    expect(h.server.connections()).toEqual([]);
  });

  it.each([
    [
      'not Istio-shaped, no NAMESPACE metadata',
      'garbage',
      /not TYPE~IP~POD\.NAMESPACE~DOMAIN \(1 parts\) and the node has no NAMESPACE metadata/,
    ],
    ['unknown node type', 'proxy~10.0.0.1~a.b~b.svc.cluster.local', /unknown node type "proxy"/],
    ['no valid IP', 'sidecar~not-an-ip~a.b~b.svc.cluster.local', /no valid IP address/],
    ['empty POD.NAMESPACE', 'sidecar~10.0.0.1~~b.svc.cluster.local', /empty POD\.NAMESPACE/],
    ['control characters', 'sidecar~10.0.0.1~a\u0001.b~b.svc.cluster.local', /control or invalid characters/],
    ['over-long id', `sidecar~10.0.0.1~${'a'.repeat(2000)}.b~b.svc.cluster.local`, /limit is 1024/],
  ])('a garbage node id (%s) gets INVALID_ARGUMENT with the reason', async (_what, id, message) => {
    const end = await refused({ id });
    expect(end.code).toBe(3);
    expect(end.details).toMatch(message);
    expect(h.logs.some((l) => l.startsWith('ADS: refused SotW stream'))).toBe(true);
  });

  it('a non-Istio id with NAMESPACE metadata is still served (meshscope serves what it can match)', async () => {
    const s = h.client.sotw({ id: 'my-client', metadata: { NAMESPACE: 'default' } });
    expect((await s.request({ typeUrl: TYPE.cluster })).resources).toHaveLength(2);
  });

  it('node metadata over the limit (128 KiB as JSON) is INVALID_ARGUMENT', async () => {
    const end = await refused({
      id: SIDECAR.id,
      metadata: { NAMESPACE: 'default', BLOB: 'x'.repeat(DEFAULT_LIMITS.maxNodeMetadataBytes) },
    });
    expect(end.code).toBe(3);
    expect(end.details).toMatch(/node\.metadata is \d+ bytes as JSON; the limit is 131072/);
  });
});

describe('request limits', () => {
  it('a request over 4 MiB ends the stream with RESOURCE_EXHAUSTED (grpc max receive size, istiod default)', async () => {
    const s = h.client.sotw(SIDECAR);
    s.send({ typeUrl: TYPE.endpoint, resourceNames: ['x'.repeat(4 * 1024 * 1024 + 10)] });
    const end = await s.ended;
    expect(end.code).toBe(8);
  });

  it('the request size limit is configurable', async () => {
    await h.close();
    h = await startHarness({ maxRequestBytes: 64 * 1024 });
    h.gen.set('v1', [edsCluster('c1')]);
    const ok = h.client.sotw(SIDECAR);
    expect((await ok.request({ typeUrl: TYPE.cluster, resourceNames: ['c1', 'y'.repeat(30_000)] })).resources).toHaveLength(1);
    const big = h.client.sotw(SIDECAR);
    big.send({ typeUrl: TYPE.cluster, resourceNames: ['y'.repeat(100_000)] });
    expect((await big.ended).code).toBe(8);
  });

  it('more resource names than the limit in one request end the stream with RESOURCE_EXHAUSTED (SotW)', async () => {
    const s = h.client.sotw(SIDECAR);
    s.send({ typeUrl: TYPE.endpoint, resourceNames: Array.from({ length: DEFAULT_LIMITS.maxResourceNames + 1 }, (_, i) => `n${i}`) });
    const end = await s.ended;
    expect(end.code).toBe(8);
    expect(end.details).toMatch(/EDS request names 50001 resources; the limit is 50000/);
  });

  it('Delta subscriptions accumulated over requests are bounded too', async () => {
    await h.close();
    h = await startHarness({ maxResourceNames: 100 });
    h.gen.set('v1', [edsCluster('c1')]);
    const d = h.client.delta(SIDECAR);
    await d.request({ typeUrl: TYPE.endpoint, subscribe: Array.from({ length: 60 }, (_, i) => `a${i}`) });
    d.send({ typeUrl: TYPE.endpoint, subscribe: Array.from({ length: 60 }, (_, i) => `b${i}`) });
    const end = await d.ended;
    expect(end.code).toBe(8);
    expect(end.details).toMatch(/EDS subscriptions reached 120 names; the limit is 100/);
  });

  it('an unknown type URL is answered once (empty) and then ignored: no request/response loop', async () => {
    const s = h.client.sotw(SIDECAR);
    const unknown = 'type.googleapis.com/example.Unknown';
    const r = await s.request({ typeUrl: unknown, resourceNames: ['a'] });
    expect(r).toMatchObject({ typeUrl: unknown, resources: [] });
    // A client that answers every response with a fresh request (empty nonce) or an ACK gets nothing more.
    for (let i = 0; i < 20; i++) {
      s.send({ typeUrl: unknown, resourceNames: [`a${i}`] });
      s.ack(r);
    }
    const next = await s.request({ typeUrl: TYPE.cluster });
    expect(next.typeUrl).toBe(TYPE.cluster);
    expect(s.buffered).toBe(0);
    expect(h.server.connections()[0]?.unknownTypes).toEqual([unknown]);
    expect(h.logs.filter((l) => l.includes('unknown type')).length).toBe(1);
  });

  it('distinct unknown types per stream are bounded (8 answered, the rest ignored)', async () => {
    const s = h.client.sotw(SIDECAR);
    for (let i = 0; i < 12; i++) s.send({ typeUrl: `type.googleapis.com/example.U${i}`, resourceNames: ['a'] });
    const seen: string[] = [];
    for (let r = await s.request({ typeUrl: TYPE.cluster }); r.typeUrl !== TYPE.cluster; r = await s.next()) seen.push(r.typeUrl);
    expect(seen).toEqual(Array.from({ length: 8 }, (_, i) => `type.googleapis.com/example.U${i}`));
    await expect(s.next(300)).rejects.toThrow(/no message/);
    expect(h.server.connections()[0]?.unknownTypes).toHaveLength(8);
  });
});

describe('NACKs', () => {
  async function nackStorm(s: SotwTestStream, n: number, message: string): Promise<void> {
    const r = await s.request({ typeUrl: TYPE.cluster });
    for (let i = 0; i < n; i++) s.nack(r, message, '');
    // Barrier: the requests on a stream are handled in order.
    await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1'] });
  }

  it('2,000 NACKs of 10 KB: the text kept per stream is cut, and the log stays small (rate limited)', async () => {
    const s = h.client.sotw(SIDECAR);
    const before = h.logs.join('\n').length;
    const t0 = performance.now();
    await nackStorm(s, 2000, `bad cluster: ${'e'.repeat(10_000)}`);
    const seconds = Math.ceil((performance.now() - t0) / 1000);
    const t = h.server.connections()[0]?.types.find((x) => x.typeUrl === TYPE.cluster);
    expect(t?.state).toBe('ERROR');
    expect(t?.lastNack?.message.startsWith('bad cluster: eee')).toBe(true);
    expect(t?.lastNack?.message).toMatch(/… \(5917 more characters\)$/);
    const nackLines = h.logs.filter((l) => l.startsWith('ADS: NACK'));
    // A burst of 20 lines, then 2 a second, of at most ~600 characters: not 2,000 lines of 10 KB (20 MB).
    expect(nackLines.length).toBeLessThanOrEqual(20 + 2 * seconds);
    expect(nackLines.every((l) => l.length < 700)).toBe(true);
    expect(h.logs.join('\n').length - before).toBeLessThan(700 * (20 + 2 * seconds) + 2000);
    await h.server.stop();
    expect(h.logs.some((l) => /ADS: \d+ NACK log lines suppressed/.test(l))).toBe(true);
  });
});
