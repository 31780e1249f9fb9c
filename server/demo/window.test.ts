import { describe, expect, it } from 'vitest';
import { CallWindow, type CallKey } from './window';

const key = (pod: string, error = ''): CallKey => ({ source: 's', target: 'h:1', tester: false, cluster: 'c', subset: 'v1', pod, error });

describe('CallWindow: fixed buckets, bounded memory', () => {
  it('sums only the buckets inside the asked window, and forgets buckets older than its span', () => {
    const w = new CallWindow({ bucketMs: 1000, buckets: 5 });
    w.record(0, key('a'), 10);
    w.record(2500, key('a'), 20);
    w.record(2600, key('b', 'UNAVAILABLE'), 30);
    expect(w.totals(2999, 1).map((c) => [c.pod, c.requests])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(w.totals(2999, 5).find((c) => c.pod === 'a')).toMatchObject({ requests: 2, latencyMs: 30 });
    // 5 s later the ring slot of t=0 is reused and t=2500 is out of the 5 s span.
    w.record(7600, key('a'), 1);
    expect(w.totals(7600, 60).map((c) => [c.pod, c.requests])).toEqual([['a', 1]]);
  });

  it('drops (and counts) keys beyond maxKeys per bucket instead of growing', () => {
    const w = new CallWindow({ bucketMs: 1000, buckets: 2, maxKeys: 2 });
    for (const p of ['a', 'b', 'c', 'd']) w.record(0, key(p), 1);
    expect(w.totals(0, 1)).toHaveLength(2);
    expect(w.dropped).toBe(2);
  });
});
