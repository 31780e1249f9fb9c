// Byte order as Go's sort.Strings produces it (sort.StringSlice.Less is `x[i] < x[j]`, bytewise).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteCompare, byteCompareBy, sortByKey } from './compare';

describe('byteCompare', () => {
  it('orders upper case before lower case and digits before letters, not by locale', () => {
    expect(['b', 'B', 'a', '10', '9', 'A-b', 'a_b', ''].sort(byteCompare)).toEqual(['', '10', '9', 'A-b', 'B', 'a', 'a_b', 'b']);
  });
  it('is 0 only for equal strings and antisymmetric', () => {
    expect(byteCompare('x', 'x')).toBe(0);
    expect(byteCompare('outbound|80||a', 'outbound|80||b')).toBe(-1);
    expect(byteCompare('outbound|80||b', 'outbound|80||a')).toBe(1);
  });
  it('byteCompareBy sorts items by a key', () => {
    const items = [{ name: 'b' }, { name: 'A' }, { name: 'a' }];
    expect(items.sort(byteCompareBy((i) => i.name)).map((i) => i.name)).toEqual(['A', 'a', 'b']);
  });
});

describe('sortByKey', () => {
  it('orders exactly as a stable byte-order sort, sorted or not, with equal keys kept in their order', () => {
    const item = fc.record({ name: fc.constantFrom('', 'a', 'A', 'b', 'a|1', 'a|10', 'a|9', 'outbound|80||x', 'é'), id: fc.nat() });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), fc.boolean(), (items, presorted) => {
        const input = presorted ? [...items].sort(byteCompareBy((i) => i.name)) : items;
        const expected = [...input].sort(byteCompareBy((i) => i.name));
        expect(sortByKey([...input], (i) => i.name)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  it('returns the same array, untouched when already in order', () => {
    const sorted = [{ name: 'a' }, { name: 'a' }, { name: 'b' }];
    const out = sortByKey(sorted, (i) => i.name);
    expect(out).toBe(sorted);
    expect(out.map((i) => i.name)).toEqual(['a', 'a', 'b']);
  });
});
