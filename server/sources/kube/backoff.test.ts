import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, scaleInformerDelay, sleep } from './backoff';

describe('backoff', () => {
  it('doubles from the initial delay and stops at the cap (1, 2, 4, 8, 16, 30, 30 s by default)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 60].map((a) => backoffDelay(DEFAULT_BACKOFF, a))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it("maps client-node's re-watch delays (1 s doubling to 30 s, cache.js ListWatch) onto the configured scale", () => {
    expect(scaleInformerDelay(DEFAULT_BACKOFF, 1000)).toBe(1000);
    expect(scaleInformerDelay(DEFAULT_BACKOFF, 30_000)).toBe(30_000);
    expect(scaleInformerDelay({ initialMs: 50, maxMs: 400 }, 1000)).toBe(50);
    expect(scaleInformerDelay({ initialMs: 50, maxMs: 400 }, 16_000)).toBe(400);
  });

  it('sleep() resolves early when aborted', async () => {
    const ctrl = new AbortController();
    const t0 = Date.now();
    const p = sleep(10_000, ctrl.signal);
    ctrl.abort();
    await p;
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
