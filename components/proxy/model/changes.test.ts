import { describe, expect, it } from 'vitest';
import { changedKeys, removedCount, signatures } from './changes';

describe('changed rows', () => {
  const a = signatures([
    { key: 'r1', to: 'v1 100%' },
    { key: 'r2', to: 'v3' },
  ]);
  const b = signatures([
    { key: 'r1', to: 'v1 90%, v2 10%' },
    { key: 'r3', to: 'v3' },
  ]);
  it('flags added and modified rows, not unchanged or removed ones', () => {
    expect([...changedKeys(a, b)].sort()).toEqual(['r1', 'r3']);
    expect(removedCount(a, b)).toBe(1);
    expect(changedKeys(a, a).size).toBe(0);
  });
  it('the first render highlights nothing', () => {
    expect(changedKeys(undefined, b).size).toBe(0);
    expect(removedCount(undefined, b)).toBe(0);
  });
});
