// The diff shared by in-sync wildcard Delta streams (cache.ts DeltaDiffs) says exactly what a stream's own walk
// (delta.ts deltaChanges) says for a stream holding the first map's versions: the xDS incremental protocol's
// changed resources and removed_resources (istiod delta.go: only changed resources, removals by name).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EncodedResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { DeltaDiffs, resourceVersion } from './cache';
import { deltaChanges } from './delta';
import { freshChanges } from './deltaFresh';
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

// A stream's first response of a type (the client holds nothing: no initial_resource_versions) is made without the
// version walk (delta.ts freshChanges); it must say exactly what the walk says with nothing known: every subscribed
// resource served (all of them for a wildcard), sorted by name, and the just-subscribed names not served as removed.
describe('freshChanges', () => {
  it('equals deltaChanges with nothing known, for any served map, subscription and just-subscribed names', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'B', 'outbound|80||x', 'outbound|9080||x', 'z');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.constantFrom('1', '2')), { selector: ([n]) => n, maxLength: 7 }),
        fc.boolean(),
        fc.uniqueArray(name, { maxLength: 7 }),
        fc.uniqueArray(name, { maxLength: 7 }),
        (served, wildcard, names, just) => {
          const all = map(...served.map(([n, c]) => res(n, c)));
          const set = { version: 'v', byType: new Map([[TYPE.address, all]]) } as unknown as ResourceSet;
          const w = { typeUrl: TYPE.address, wildcard, names: new Set(names), known: new Map<string, string>() };
          const walk = deltaChanges(w, set, new Set(just));
          const fresh = freshChanges(w, all, new Set(just));
          expect(fresh.resources.map((r) => r.name)).toEqual(walk.resources.map((r) => r.name));
          expect(fresh.resources).toEqual(walk.resources);
          expect(fresh.removed).toEqual(walk.removed);
          // No served map for the type at all: only removals.
          const none = freshChanges(w, undefined, new Set(just));
          expect(none.resources).toEqual([]);
          expect(none.removed).toEqual([...just].sort());
        },
      ),
      { numRuns: 400 },
    );
  });
});
