import { describe, expect, it } from 'vitest';
import { apportion, effectiveWeights, setWeight, weightSum } from './weights';

describe('setWeight keeps a route at 100%', () => {
  it('two destinations: moving one moves the other the opposite way (100/0 → 50/50)', () => {
    expect(setWeight([100, 0], 1, 50)).toEqual([50, 50]);
    expect(setWeight([100, 0], 0, 30)).toEqual([30, 70]);
  });

  it('three destinations: the others keep their proportions, integers, sum 100', () => {
    expect(setWeight([50, 30, 20], 0, 0)).toEqual([0, 60, 40]);
    const w = setWeight([34, 33, 33], 2, 10);
    expect(w[2]).toBe(10);
    expect(weightSum(w)).toBe(100);
    expect(w.every((x) => Number.isInteger(x))).toBe(true);
  });

  it('others all at 0 share the rest equally', () => {
    expect(setWeight([100, 0, 0], 0, 40)).toEqual([40, 30, 30]);
  });

  it('clamps to 0..100 and a lone destination always has 100', () => {
    expect(setWeight([60, 40], 0, 140)).toEqual([100, 0]);
    expect(setWeight([60, 40], 0, -5)).toEqual([0, 100]);
    expect(setWeight([100], 0, 20)).toEqual([100]);
  });

  it('for every start and every value, the sum stays exactly 100', () => {
    for (const start of [
      [100, 0, 0],
      [1, 1, 98],
      [33, 33, 34],
      [25, 25, 25, 25],
    ])
      for (let i = 0; i < start.length; i++) for (let v = 0; v <= 100; v += 7) expect(weightSum(setWeight(start, i, v))).toBe(100);
  });
});

describe('apportion / effectiveWeights', () => {
  it('largest remainder', () => {
    expect(apportion([1, 1, 1], 100)).toEqual([34, 33, 33]);
    expect(apportion([], 100)).toEqual([]);
  });
  it('an unset weight is 100 for a single destination, 0 among several (as Istio translates them)', () => {
    expect(effectiveWeights([undefined])).toEqual([100]);
    expect(effectiveWeights([80, undefined])).toEqual([80, 0]);
  });
});
