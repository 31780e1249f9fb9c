// The diff shared by in-sync wildcard Delta streams (cache.ts DeltaDiffs) says exactly what a stream's own walk
// (delta.ts deltaChanges) says for a stream holding the first map's versions: the xDS incremental protocol's
// changed resources and removed_resources (istiod delta.go: only changed resources, removals by name).
import { describe, expect, it } from 'vitest';
import type { EncodedResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { DeltaDiffs, resourceVersion } from './cache';
import { deltaChanges } from './delta';
import type { ResourceSet } from './types';

const res = (name: string, content: string): EncodedResource =>
  ({ typeUrl: TYPE.address, name, bytes: new Uint8Array(), hash: `${content}`.padEnd(64, '0') }) as unknown as EncodedResource;
const map = (...rs: EncodedResource[]) => new Map(rs.map((r) => [r.name, r]));

describe('DeltaDiffs', () => {
  const from = map(res('a', 'a1'), res('b', 'b1'), res('c', 'c1'), res('d', 'd1'));
  // b changed, c removed, e added, a the same content in a new object, d the same object
  const to = map(res('a', 'a1'), res('b', 'b2'), from.get('d')!, res('e', 'e1'));
  const known = new Map([...from].map(([n, r]) => [n, resourceVersion(r)]));
  const own = deltaChanges(
    { typeUrl: TYPE.address, wildcard: true, names: new Set(), known },
    {
      version: 'v',
      byType: new Map([[TYPE.address, to]]),
    } as unknown as ResourceSet,
    new Set(),
  );

  it('equals the per-stream walk', () => {
    const d = new DeltaDiffs().diff(from, to);
    expect(d.resources.map((r) => r.name)).toEqual(['b', 'e']);
    expect(d.removed).toEqual(['c']);
    expect(d.resources).toEqual(own.resources);
    expect(d.removed).toEqual(own.removed);
  });

  it('is computed once per pair of maps and recomputed for another target', () => {
    const diffs = new DeltaDiffs();
    expect(diffs.diff(from, to)).toBe(diffs.diff(from, to));
    const other = map(res('a', 'a2'));
    expect(diffs.diff(from, other).resources.map((r) => r.name)).toEqual(['a']);
    expect(diffs.diff(from, other).removed).toEqual(['b', 'c', 'd']);
  });
});
