import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { Debouncer, mergePushRequests } from './debounce';
import type { PushRequest } from './types';

// istiod pilot/pkg/xds/discovery.go debounce: release after `debounceAfter` of quiet, or once `debounceMax`
// passed since the first merged event; requests merge (PushRequest.Merge).
describe('Debouncer (istiod debounce)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = (quietMs: number, maxMs: number) => {
    const out: string[][] = [];
    const d = new Debouncer<string[]>({ quietMs, maxMs, merge: (a, b) => [...a, ...b], flush: (v) => out.push(v), now: () => Date.now() });
    return { d, out };
  };

  it('releases one merged request after the quiet period', () => {
    const { d, out } = make(100, 10_000);
    d.add(['a']);
    vi.advanceTimersByTime(50);
    d.add(['b']);
    vi.advanceTimersByTime(99);
    expect(out).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([['a', 'b']]);
  });

  it('releases at the max delay even when events keep coming', () => {
    const { d, out } = make(100, 1_000);
    for (let t = 0; t < 1_500; t += 50) {
      d.add([`e${t}`]);
      vi.advanceTimersByTime(50);
    }
    expect(out.length).toBeGreaterThanOrEqual(1);
    expect(out[0]).toHaveLength(20); // events at 0..950 ms, released at 1,000 ms
  });

  it('stop() drops what is pending', () => {
    const { d, out } = make(100, 1_000);
    d.add(['a']);
    d.stop();
    vi.advanceTimersByTime(5_000);
    expect(out).toEqual([]);
  });
});

describe('mergePushRequests (istiod PushRequest.Merge)', () => {
  const eds = new Set([TYPE.endpoint] as const);
  const cds = new Set([TYPE.cluster] as const);
  const cases: Array<[string, PushRequest, PushRequest, PushRequest['proxies'], string[] | undefined]> = [
    [
      'proxy sets union',
      { proxies: new Set(['a']), reason: 'r' },
      { proxies: new Set(['b']), reason: 'r' },
      new Set(['a', 'b']),
      undefined,
    ],
    ['all wins', { proxies: 'all', reason: 'r' }, { proxies: new Set(['b']), reason: 'r' }, 'all', undefined],
    ['unspecified proxies mean all', { reason: 'r' }, { proxies: new Set(['b']), reason: 'r' }, 'all', undefined],
    [
      'type sets union',
      { proxies: 'all', types: eds, reason: 'r' },
      { proxies: 'all', types: cds, reason: 'r' },
      'all',
      [TYPE.cluster, TYPE.endpoint],
    ],
    [
      'a full push (no types) wins over an EDS-only push',
      { proxies: 'all', types: eds, reason: 'r' },
      { proxies: 'all', reason: 'r' },
      'all',
      undefined,
    ],
  ];
  for (const [name, a, b, proxies, types] of cases) {
    it(name, () => {
      const m = mergePushRequests(a, b);
      expect(m.proxies).toEqual(proxies);
      expect(m.types ? [...m.types].sort() : undefined).toEqual(types);
    });
  }

  it('reasons are joined once each and bounded', () => {
    let r: PushRequest = { reason: 'config' };
    for (let i = 0; i < 50; i++) r = mergePushRequests(r, { reason: i % 2 ? 'config' : `endpoint ${i}` });
    expect(r.reason.startsWith('config, endpoint 0')).toBe(true);
    expect(r.reason.split(', ').length).toBeLessThanOrEqual(8);
  });
});
