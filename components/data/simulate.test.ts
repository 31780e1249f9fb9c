import { describe, expect, it } from 'vitest';
import { queryKeys } from './queryKeys';
import { dumpFingerprint, simulateKeys } from './simulate';

describe('simulate keys', () => {
  const req = { mode: 'outbound' as const, port: 9080 };
  it('a proxy trace is under the proxy key, so mesh-event invalidation (prefix match) re-runs it', () => {
    expect(simulateKeys.proxy('a.shop', req).slice(0, 3)).toEqual([...queryKeys.proxy('a.shop')]);
  });

  it('dump fingerprints differ when the dump differs and agree for equal dumps', () => {
    expect(dumpFingerprint({ configs: [1] })).toBe(dumpFingerprint({ configs: [1] }));
    expect(dumpFingerprint({ configs: [1] })).not.toBe(dumpFingerprint({ configs: [2] }));
    expect(simulateKeys.dump('f', req)).not.toEqual(simulateKeys.dump('f', { ...req, port: 80 }));
  });
});
