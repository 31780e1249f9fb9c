// The issue-24 bench reports each figure as the median of its runs (issue 24: "medians on this machine"), and a row
// whose median misses its goal carries the CPU profile of a second, profiled run ("every figure that misses its goal
// comes with a CPU profile summary"); a row whose median is met carries none, even if one run missed.
import { describe, expect, it } from 'vitest';
import { medianRows } from './issue24Rows';
import type { ProfileSummary } from './profile';
import type { BenchRow } from './table';

const profile: ProfileSummary = { totalMs: 1, top: [] };
const row = (value: number, detail: string, extra: Partial<BenchRow> = {}): BenchRow => ({
  figure: 'all K distinct-pod clients ACK their first config',
  size: 'N=1000',
  value,
  unit: 'ms',
  goal: 3000,
  detail,
  ...extra,
});

describe('issue 24 bench: medians of runs', () => {
  it('each row is the median run (its detail kept), listing every run', () => {
    const [r] = medianRows([[row(3400, 'a')], [row(2500, 'b')], [row(2700, 'c')]]);
    expect(r!.value).toBe(2700);
    expect(r!.detail).toBe('median of 3 runs (3400, 2500, 2700 ms); that run: c');
  });

  it('a profile only where the median misses, from the profiled run', () => {
    const profiled = [row(0, '', { profile })];
    expect(medianRows([[row(3400, 'a')], [row(2500, 'b')], [row(2700, 'c')]], profiled)[0]!.profile).toBeUndefined();
    expect(medianRows([[row(3400, 'a')], [row(3100, 'b')], [row(2700, 'c')]], profiled)[0]!.profile).toBe(profile);
    // a run's own profile never passes through
    expect(medianRows([[row(3400, 'a', { profile })], [row(2500, 'b')], [row(2700, 'c')]])[0]!.profile).toBeUndefined();
  });

  it('one run: its rows as they are', () => {
    expect(medianRows([[row(3100, 'only')]], [row(0, '', { profile })])[0]).toMatchObject({ value: 3100, detail: 'only', profile });
  });
});
