// Byte order as Go's sort.Strings produces it (sort.StringSlice.Less is `x[i] < x[j]`, bytewise).
import { describe, expect, it } from 'vitest';
import { byteCompare, byteCompareBy } from './compare';

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
