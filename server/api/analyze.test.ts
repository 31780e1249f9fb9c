// GET /api/analyze handler on Istio's Bookinfo manifests, loaded for real: findings + per-level counts.
// Expected: virtual-service-reviews-v3 without a DestinationRule defining subset v3 → IST0101
// (Istio analyzers/virtualservice/destinationrules.go), Error level (msg/messages.yaml).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { analyzeMesh } from './analyze';

describe('analyzeMesh', () => {
  it('returns the snapshot version, the findings and their counts per level', () => {
    const r = loadPaths([bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-v3.yaml')]);
    const snapshot = buildSnapshot(r.inputs, { version: 7, extraErrors: r.errors });
    const res = analyzeMesh({ snapshot, options: DEFAULT_OPTIONS });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(7);
    expect(res.body.findings.map((f) => [f.code, f.object, f.path])).toEqual([
      ['IST0101', 'VirtualService default/reviews', 'spec.http[0].route[0].destination.subset'],
    ]);
    expect(res.body.counts).toEqual({ Error: 1, Warning: 0, Info: 0 });
  });
});
