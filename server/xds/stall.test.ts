// Issue 14 item 6: clients that never read must not stall pushes to the others. Real loopback streams:
// 200 raw HTTP/2 clients open a SotW stream, ask for CDS and never read again (paused stream, 1 KiB
// window, responses of ~100 KB), plus one good grpc-js client that must receive every push.
// istiod bounds the same hazard with PILOT_PUSH_THROTTLE slots released per push and
// PILOT_XDS_SEND_TIMEOUT (pilot/pkg/features/pilot.go); a blocked Send never holds the others.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { edsCluster } from './testing/fixtures';
import { startHarness, SIDECAR, type Harness } from './testing/harness';
import { openRawSotw, type RawSotwStream } from './testing/rawStream';
import { waitFor } from './testing/echo';

const STUCK = 200;
/** 40 clusters with 2.5 KB names: a CDS response of ~100 KB, far over the stuck clients' windows. */
const clusters = (tag: string) => Array.from({ length: 40 }, (_, i) => edsCluster(`${tag}-${i}-${'x'.repeat(2500)}`));

let h: Harness;
let stuck: RawSotwStream[] = [];
beforeEach(async () => {
  h = await startHarness({ debounceMs: 1 });
  h.gen.set('v1', clusters('a'));
});
afterEach(async () => {
  for (const s of stuck) s.close();
  stuck = [];
  await h.close();
});

/** Every stuck client has been sent its CDS response (and cannot take it). */
const stuckServed = () =>
  h.server.connections().filter((c) => c.client.proxyId.startsWith('stuck-') && c.types.some((t) => t.sentNonce)).length === STUCK;

describe('stuck ADS readers', () => {
  it('200 clients that never read do not stop pushes to a client that reads', async () => {
    for (let i = 0; i < STUCK; i++) {
      const s = openRawSotw(h.port, { id: `sidecar~10.9.${i >> 8}.${i & 255}~stuck-${i}.ns~ns.svc.cluster.local` });
      s.send({ typeUrl: TYPE.cluster });
      stuck.push(s);
    }
    await waitFor(stuckServed, 'the stuck clients to be sent their first response', 30_000);

    const good = h.client.sotw(SIDECAR);
    const first = await good.request({ typeUrl: TYPE.cluster }, 10_000);
    expect(first.versionInfo).toBe('v1');
    good.ack(first);

    const latencies: number[] = [];
    for (const v of ['v2', 'v3', 'v4']) {
      h.gen.set(v, clusters(v));
      const t0 = performance.now();
      h.server.push({ proxies: 'all', reason: `config ${v}` });
      const r = await good.next(10_000);
      latencies.push(performance.now() - t0);
      expect(r.versionInfo).toBe(v);
      expect(r.resources).toHaveLength(40);
      good.ack(r);
    }
    // The stuck streams really are blocked (their first response never completed), and they hold no push slot.
    const status = h.server.connections().filter((c) => c.client.proxyId.startsWith('stuck-'));
    expect(status).toHaveLength(STUCK);
    expect(status.every((c) => c.backpressure?.blocked === true)).toBe(true);
    expect(status.every((c) => (c.backpressure?.deferredPushes ?? 0) >= 1)).toBe(true);
    expect(h.server.stats().running).toBe(0);
    console.log(`good client push latency with ${STUCK} stuck readers (ms): ${latencies.map((l) => l.toFixed(1)).join(', ')}`);
  }, 90_000);

  it('a stream blocked longer than the bound is reset (RST_STREAM) and forgotten', async () => {
    await h.close();
    h = await startHarness({ debounceMs: 1, stalledStreamCloseMs: 1_500 });
    h.gen.set('v1', clusters('a'));
    const blocked = openRawSotw(h.port, { id: 'sidecar~10.9.0.1~stuck-0.ns~ns.svc.cluster.local' });
    blocked.send({ typeUrl: TYPE.cluster });
    stuck.push(blocked);
    await waitFor(() => h.server.connections()[0]?.backpressure?.blocked === true, 'the stream to block', 10_000);
    const end = await blocked.closed;
    // RST_STREAM CANCEL (0x8): a gRPC status (trailers) would queue behind the data the client does not read.
    expect(end.rstCode).toBe(8);
    await waitFor(() => h.server.connections().length === 0, 'the server to forget the stream', 5_000);
    expect(h.logs.some((l) => /has not read a response for 1500 ms.*stream reset/.test(l))).toBe(true);
  }, 30_000);

  it('pushes to a blocked stream are merged: once it reads, it gets the pending response and then only the latest state', async () => {
    const slow = openRawSotw(h.port, { id: 'sidecar~10.9.0.2~slow-0.ns~ns.svc.cluster.local' });
    slow.send({ typeUrl: TYPE.cluster });
    stuck.push(slow);
    await waitFor(() => h.server.connections()[0]?.backpressure?.blocked === true, 'the stream to block', 10_000);
    for (const v of ['v2', 'v3', 'v4']) {
      h.gen.set(v, clusters(v));
      h.server.push({ proxies: 'all', reason: `config ${v}` });
      await h.server.flush();
    }
    expect(h.server.connections()[0]?.backpressure).toMatchObject({ blocked: true, deferredPushes: 3, deferredTypes: [TYPE.cluster] });
    slow.resume();
    await waitFor(() => slow.responses.length >= 2, 'the pending and the merged response', 10_000);
    await new Promise((r) => setTimeout(r, 300));
    // SotW: every response carries the full state, so the intermediate v2/v3 are never needed.
    expect(slow.responses.map((r) => r.versionInfo)).toEqual(['v1', 'v4']);
    expect(h.server.connections()[0]?.backpressure?.blocked).toBe(false);
  }, 30_000);
});
