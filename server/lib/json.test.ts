// Defensive JSON readers: every wrong shape reads as empty/undefined (config dumps are user input), and
// proto3 JSON encodings are understood (int64 as decimal strings, wrappers as { value }), per the proto3 JSON
// mapping (https://protobuf.dev/programming-guides/json/).
import { describe, expect, it } from 'vitest';
import {
  asArray,
  asNonEmptyString,
  asNumber,
  asObject,
  asScalarString,
  asString,
  asStringRecord,
  getArray,
  getBoolean,
  getNumber,
  getObject,
  getObjects,
  getString,
  hasField,
  isJsonObject,
} from './json';

const WRONG = [null, undefined, 1, 'x', true, [1]];

describe('value coercers', () => {
  it('objects and arrays: anything else reads as empty', () => {
    expect(WRONG.filter((v) => !Array.isArray(v)).map(asObject)).toEqual([{}, {}, {}, {}, {}]);
    expect([null, 'x', { a: 1 }].map(asArray)).toEqual([[], [], []]);
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    const o = { a: 1 };
    expect(asObject(o)).toBe(o);
  });
  it('strings', () => {
    expect([asString('a'), asString(1), asString(''), asNonEmptyString(''), asNonEmptyString('b')]).toEqual([
      'a',
      undefined,
      '',
      undefined,
      'b',
    ]);
    expect([asScalarString(80), asScalarString(true), asScalarString('x'), asScalarString({}), asScalarString(null)]).toEqual([
      '80',
      'true',
      'x',
      undefined,
      undefined,
    ]);
  });
  it('numbers: finite numbers and non-blank numeric strings (int64 as string)', () => {
    expect([asNumber(3), asNumber('9007199254740993'), asNumber(' 42 '), asNumber('0')]).toEqual([3, 9007199254740992, 42, 0]);
    expect([asNumber(''), asNumber('  '), asNumber('x'), asNumber(Number.NaN), asNumber(Number.POSITIVE_INFINITY), asNumber(null)]).toEqual(
      [undefined, undefined, undefined, undefined, undefined, undefined],
    );
  });
  it('string records keep only string values', () => {
    expect(asStringRecord({ app: 'web', n: 1, o: {}, v: 'v1' })).toEqual({ app: 'web', v: 'v1' });
    expect(asStringRecord(['a'])).toEqual({});
  });
});

describe('field readers', () => {
  const v = {
    o: { x: 1 },
    a: [{ y: 1 }, 2, null],
    s: 'str',
    n: '15',
    w: { value: 7 },
    b: { value: true },
    t: false,
    z: null,
  };
  it('read the field when it has the right shape', () => {
    expect(getObject(v, 'o')).toEqual({ x: 1 });
    expect(getArray(v, 'a')).toHaveLength(3);
    expect(getObjects(v, 'a')).toEqual([{ y: 1 }]);
    expect(getString(v, 's')).toBe('str');
    expect([getNumber(v, 'n'), getNumber(v, 'w')]).toEqual([15, 7]);
    expect([getBoolean(v, 'b'), getBoolean(v, 't')]).toEqual([true, false]);
    expect([hasField(v, 's'), hasField(v, 'z'), hasField(v, 'missing')]).toEqual([true, false, false]);
  });
  it('read undefined / empty on wrong shapes and non-objects', () => {
    expect(getObject(v, 's')).toBeUndefined();
    expect(getArray(v, 'o')).toEqual([]);
    expect(getString(v, 'n') === '15' && getString(v, 'o')).toBeUndefined();
    expect(getNumber(v, 'b')).toBeUndefined();
    expect(getBoolean(v, 'w')).toBeUndefined();
    for (const bad of WRONG) {
      expect(getObject(bad, 'o')).toBeUndefined();
      expect(getObjects(bad, 'a')).toEqual([]);
      expect(getString(bad, 'length')).toBeUndefined();
      expect(getNumber(bad, 'length')).toBeUndefined();
    }
  });
});
