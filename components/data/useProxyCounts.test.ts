import { describe, expect, it } from 'vitest';
import { COUNTS_BATCH, nextCountBatch } from './useProxyCounts';

const c = { counts: { listeners: 1, routes: 1, clusters: 1, endpoints: 1 }, errors: 0 };

describe('nextCountBatch', () => {
  it('asks for the first shown rows without counts, one bounded batch at a time, skipping known and failed ids', () => {
    const wanted = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect(nextCountBatch(wanted, new Map(), new Set())).toEqual(wanted.slice(0, COUNTS_BATCH));
    expect(
      nextCountBatch(
        wanted,
        new Map([
          ['a', c],
          ['c', c],
        ]),
        new Set(['b']),
        3,
      ),
    ).toEqual(['d', 'e', 'f']);
    expect(nextCountBatch(['a', 'a'], new Map(), new Set())).toEqual(['a']);
    expect(nextCountBatch(wanted, new Map(wanted.map((id) => [id, c])), new Set())).toEqual([]);
  });
});
