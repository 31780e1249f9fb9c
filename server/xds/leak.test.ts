// 1,000 connect/disconnect cycles: no state is kept for closed streams, and the heap stays bounded.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { edsCluster, loadAssignment } from './testing/fixtures';
import { startHarness, type Harness } from './testing/harness';
import { waitFor } from './testing/echo';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ debounceMs: 1 });
  h.gen.set('v1', [
    ...Array.from({ length: 50 }, (_, i) => edsCluster(`c${i}`)),
    ...Array.from({ length: 50 }, (_, i) => loadAssignment(`c${i}`, [['10.0.0.1', 80 + i]])),
  ]);
});
afterAll(async () => {
  await h.close();
});

async function cycle(i: number): Promise<void> {
  const node = { id: `sidecar~10.0.${i % 250}.${i % 200}~pod-${i}.ns~ns.svc.cluster.local` };
  let s;
  if (i % 3 === 0) {
    s = h.client.delta(node);
    await s.request({ typeUrl: TYPE.cluster });
  } else {
    s = h.client.sotw(node);
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1', 'c2'] });
  }
  if (i % 10 === 0) h.server.push({ proxies: 'all', reason: `cycle ${i}` });
  if (i % 2 === 0) s.cancel();
  else s.end();
  await s.ended;
}

const settled = () => {
  const st = h.server.stats();
  return st.connections === 0 && st.queued === 0 && st.running === 0 && st.pending === 0;
};

describe('connection lifecycle', () => {
  it('1,000 connect/disconnect cycles leave no connection state and a bounded heap', async () => {
    for (let i = 0; i < 100; i++) await cycle(i);
    await waitFor(settled, 'server to forget warm-up connections');
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 100; i < 1100; i++) await cycle(i);
    await h.server.flush();
    await waitFor(settled, 'server to forget all connections');
    expect(h.server.connections()).toEqual([]);
    expect(h.server.syncz()).toEqual([]);
    expect(h.server.stats()).toMatchObject({ connections: 0, queued: 0, running: 0, pending: 0, debouncing: false });
    // Any bytes are shared across connections: 50 clusters + the 2 EDS names ever sent, not per connection.
    expect(h.server.stats().anyCache).toBe(52);
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    // 1,000 leaked connections with their subscriptions and trackers would be several MB; allow noise.
    expect(growth).toBeLessThan(8 * 1024 * 1024);
    expect(h.logs.filter((l) => l.includes('closed')).length).toBe(1100);
  }, 120_000);
});
