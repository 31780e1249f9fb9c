// GET /api/graph's graphType parameter: Kiali's graph type names (graph/types.go GraphType*) plus `proxy`.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot, pod, service } from '../translate/testing/meshBuilder';
import { SnapshotMemo } from './snapshotMemo';
import { graphTypeOf, typedGraph } from './graph';

const q = (s: string) => new URLSearchParams(s);

describe('graphTypeOf', () => {
  it("accepts Kiali's names and proxy; absent or empty means the per-proxy graph", () => {
    for (const t of ['versionedApp', 'app', 'workload', 'service', 'proxy']) expect(graphTypeOf(q(`graphType=${t}`))).toBe(t);
    expect(graphTypeOf(q(''))).toBe('proxy');
    expect(graphTypeOf(q('graphType='))).toBe('proxy');
  });

  it('400 naming the allowed values for anything else', () => {
    expect(graphTypeOf(q('graphType=VersionedApp'))).toEqual({
      status: 400,
      body: { error: 'graphType must be one of versionedApp, app, workload, service, proxy (got "VersionedApp")' },
    });
  });
});

describe('typedGraph', () => {
  it('built once per snapshot and type through the memo', () => {
    const snapshot = buildSnapshot({
      services: [service('web', 'shop')],
      pods: [pod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' } })],
    });
    const ctx = { snapshot, options: DEFAULT_OPTIONS, memo: new SnapshotMemo() };
    const a = typedGraph(ctx, 'workload').body;
    expect(typedGraph(ctx, 'workload').body).toBe(a);
    expect(a.graphType).toBe('workload');
    expect(ctx.memo.builds.get('graph:workload')).toBe(1);
    expect(ctx.memo.builds.get('graph')).toBe(1);
  });
});
