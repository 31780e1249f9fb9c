// Generation slices (slices.ts): first in, first out; a burst never holds the event loop past one slice,
// so I/O queued behind it (a socket write's completion, a timer) runs between slices; generation pauses
// while too many response bytes wait to be taken, and a write that is never taken counts only holdMs.
import { describe, expect, it } from 'vitest';
import { SliceScheduler } from './slices';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* work */
  }
};
const turn = () => new Promise((r) => setImmediate(r));

describe('SliceScheduler', () => {
  it('runs jobs in order, none synchronously', async () => {
    const s = new SliceScheduler({ sliceMs: 1000 });
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) s.run(() => ran.push(i));
    expect(ran).toEqual([]);
    await turn();
    await turn();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
  });

  it('yields to the event loop after a slice: I/O queued meanwhile runs before the remaining jobs', async () => {
    const s = new SliceScheduler({ sliceMs: 5 });
    const order: string[] = [];
    for (let i = 0; i < 4; i++)
      s.run(() => {
        if (i === 0) setImmediate(() => order.push('io'));
        busy(10);
        order.push(`job${i}`);
      });
    while (order.length < 5) await turn();
    // Each job exhausts the 5 ms slice: the immediate queued by job0 runs right after it.
    expect(order).toEqual(['job0', 'io', 'job1', 'job2', 'job3']);
  });

  it('`soon` jobs (streams already being served) run before the others, each kind in order', async () => {
    const s = new SliceScheduler({ sliceMs: 1000 });
    const ran: string[] = [];
    s.run(() => ran.push('new1'));
    s.run(() => ran.push('new2'));
    s.run(() => ran.push('soon1'), true);
    s.run(() => ran.push('soon2'), true);
    await turn();
    await turn();
    expect(ran).toEqual(['soon1', 'soon2', 'new1', 'new2']);
  });

  it('a throwing job is reported and the rest still run', async () => {
    const errors: unknown[] = [];
    const s = new SliceScheduler({ onError: (e) => errors.push(e) });
    const ran: number[] = [];
    s.run(() => {
      throw new Error('boom');
    });
    s.run(() => ran.push(1));
    await turn();
    await turn();
    expect(errors).toHaveLength(1);
    expect(ran).toEqual([1]);
  });

  it('pauses while more than maxBytes wait to be taken, and resumes when they are', async () => {
    const s = new SliceScheduler({ maxBytes: 100, holdMs: 60_000 });
    let take!: () => void;
    s.hold(150, new Promise<void>((r) => (take = r)));
    const ran: number[] = [];
    s.run(() => ran.push(1));
    for (let i = 0; i < 5; i++) await turn();
    expect(ran).toEqual([]);
    expect(s.heldBytes).toBe(150);
    take();
    for (let i = 0; i < 5 && ran.length === 0; i++) await turn();
    expect(ran).toEqual([1]);
    expect(s.heldBytes).toBe(0);
  });

  it('a write that is never taken holds the bound for holdMs only (a stalled client cannot stall the others)', async () => {
    const s = new SliceScheduler({ maxBytes: 100, holdMs: 30 });
    s.hold(1_000, new Promise(() => {}));
    const ran: number[] = [];
    s.run(() => ran.push(1));
    await turn();
    expect(ran).toEqual([]);
    await new Promise((r) => setTimeout(r, 80));
    for (let i = 0; i < 5 && ran.length === 0; i++) await turn();
    expect(ran).toEqual([1]);
  });
});
