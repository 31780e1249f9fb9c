// Edge labels of the merged graph types: a number or nothing (#23 §3 "edge labels only where they carry a number").
import { describe, expect, it } from 'vitest';
import type { TypedEdge } from '@/server/meshGraph/graphType';
import { mergedEdgeLabel } from './edgeLabels';

const edge = (x: Partial<TypedEdge>): TypedEdge => ({ id: 'e', kind: 'route', source: 'a', target: 'b', label: '', ...x });

describe('mergedEdgeLabel', () => {
  it('a configured split: subsets and shares', () => {
    const e = edge({
      splits: [
        { subset: 'v1', configuredPercent: 80 },
        { subset: 'v2', configuredPercent: 20 },
      ],
    });
    expect(mergedEdgeLabel(e)).toBe('v1 80 · v2 20%');
  });

  it('no split and no traffic: no label (one destination, a match rule, an endpoint)', () => {
    expect(mergedEdgeLabel(edge({ splits: [{}] }))).toBe('');
    expect(mergedEdgeLabel(edge({ splits: [{ subset: 'v2', configuredPercent: 100 }] }))).toBe('');
    expect(mergedEdgeLabel(edge({ kind: 'endpoint', splits: [{}] }))).toBe('');
  });

  it('observed beside configured: the observed shares, the rate and the errors', () => {
    const e = edge({
      splits: [
        { subset: 'v1', configuredPercent: 80, observed: { requestsPerSecond: 7.8, percent: 78, errorPercent: 0 } },
        { subset: 'v2', configuredPercent: 20, observed: { requestsPerSecond: 2.2, percent: 22, errorPercent: 50 } },
      ],
      observed: { requestsPerSecond: 10, percent: 100, errorPercent: 11 },
    });
    expect(mergedEdgeLabel(e)).toBe('v1 80 · v2 20%\nseen 78 · 22% · 10/s · 11% err');
  });

  it('an idle configured path: the configured split only, no observed zeros', () => {
    const e = edge({
      splits: [
        { subset: 'v1', configuredPercent: 80, observed: { requestsPerSecond: 0, percent: 0, errorPercent: 0 } },
        { subset: 'v2', configuredPercent: 20, observed: { requestsPerSecond: 0, percent: 0, errorPercent: 0 } },
      ],
      observed: { requestsPerSecond: 0, percent: 0, errorPercent: 0 },
    });
    expect(mergedEdgeLabel(e)).toBe('v1 80 · v2 20%');
    expect(mergedEdgeLabel(edge({ splits: [{}], observed: { requestsPerSecond: 0, percent: 0, errorPercent: 0 } }))).toBe('');
  });

  it('traffic with no configured route is labelled so', () => {
    const e = edge({ unconfigured: true, routes: [], splits: [{ observed: { requestsPerSecond: 0.5, percent: 100, errorPercent: 0 } }] });
    e.observed = { requestsPerSecond: 0.5, percent: 100, errorPercent: 0 };
    expect(mergedEdgeLabel(e)).toBe('unconfigured 0.50/s');
  });
});
