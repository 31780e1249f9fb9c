import { describe, expect, it } from 'vitest';
import { PushQueue } from './pushQueue';

// Behaviour of istiod's pilot/pkg/xds/pushqueue.go: one entry per connection; enqueue while queued merges;
// enqueue while being pushed is kept (merged) as pending and re-queued after MarkDone; concurrency bounded.
type Job = string[];
const merge = (a: Job, b: Job): Job => [...a, ...b];

function harness(concurrency: number) {
  const started: Array<[string, Job]> = [];
  const release = new Map<string, () => void>();
  const q = new PushQueue<string, Job>({
    concurrency,
    merge,
    run: (k, v) =>
      new Promise<void>((resolve) => {
        started.push([k, v]);
        release.set(k, resolve);
      }),
  });
  const finish = async (k: string) => {
    release.get(k)!();
    release.delete(k);
    await new Promise((r) => setImmediate(r));
  };
  return { q, started, finish };
}

describe('PushQueue (istiod pushqueue semantics)', () => {
  it('enqueue of a queued connection merges into one job', () => {
    const { q, started } = harness(1);
    q.enqueue('a', ['1']); // starts at once
    q.enqueue('b', ['x']);
    q.enqueue('b', ['y']);
    expect(started).toEqual([['a', ['1']]]);
    expect(q.stats()).toEqual({ queued: 1, running: 1, pending: 0 });
  });

  it('enqueue while being pushed keeps one merged pending job, run after the current one', async () => {
    const { q, started, finish } = harness(2);
    q.enqueue('a', ['1']);
    q.enqueue('a', ['2']);
    q.enqueue('a', ['3']);
    expect(q.stats()).toEqual({ queued: 0, running: 1, pending: 1 });
    await finish('a');
    expect(started).toEqual([
      ['a', ['1']],
      ['a', ['2', '3']],
    ]);
    await finish('a');
    expect(q.stats()).toEqual({ queued: 0, running: 0, pending: 0 });
  });

  it('never runs more than `concurrency` pushes; FIFO across connections', async () => {
    const { q, started, finish } = harness(2);
    for (const k of ['a', 'b', 'c', 'd']) q.enqueue(k, [k]);
    expect(started.map(([k]) => k)).toEqual(['a', 'b']);
    await finish('b');
    expect(started.map(([k]) => k)).toEqual(['a', 'b', 'c']);
    await finish('a');
    expect(started.map(([k]) => k)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('remove() drops queued and pending work of a closed connection', async () => {
    const { q, started, finish } = harness(1);
    q.enqueue('a', ['1']);
    q.enqueue('a', ['2']); // pending
    q.enqueue('b', ['1']); // queued
    q.remove('a');
    q.remove('b');
    await finish('a');
    expect(started).toEqual([['a', ['1']]]);
    expect(q.stats()).toEqual({ queued: 0, running: 0, pending: 0 });
    await q.idle();
  });

  it('a failing push is reported and does not stall the queue', async () => {
    const errors: string[] = [];
    const q = new PushQueue<string, Job>({
      concurrency: 1,
      merge,
      run: async (k) => {
        if (k === 'bad') throw new Error('boom');
      },
      onError: (k, e) => errors.push(`${k}: ${(e as Error).message}`),
    });
    q.enqueue('bad', []);
    q.enqueue('good', []);
    await q.idle();
    expect(errors).toEqual(['bad: boom']);
  });
});
