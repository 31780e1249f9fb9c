// The Drift view's line marking follows the drift engine's path syntax (server/drift/paths.ts): the lines of
// a differing field are marked on each side, nothing else. Checked on a real difference computed by the
// engine from Istio's comparator pair (istioctl/pkg/writer/compare/testdata), not on hand-made paths only.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeDrift } from '@/server/drift/index';
import { configDumpFixture } from '@/server/testing/paths';
import { driftSummary, printWithPaths } from './model';

describe('printWithPaths', () => {
  it('marks the lines of a differing leaf, element by name or index, and a whole subtree', () => {
    const v = { name: 'c', a: { b: 1, c: 2 }, list: [{ name: 'x', w: 1 }, { w: 2 }] };
    const lines = printWithPaths(v, ['a.c', 'list[x].w', 'list[1]']);
    const hits = lines.filter((l) => l.hit).map((l) => l.text.trim());
    expect(hits).toEqual(['"c": 2', '"w": 1', '{', '"w": 2', '}']);
    expect(lines.map((l) => l.text).join('\n')).toBe(JSON.stringify(v, null, 2));
    expect(printWithPaths(v, ['.']).every((l) => l.hit)).toBe(true);
    expect(printWithPaths(v, []).some((l) => l.hit)).toBe(false);
  });

  it("on the comparator pair's changed listener, only use_remote_address is marked (on the side that has it)", () => {
    const d = computeDrift(
      JSON.parse(readFileSync(configDumpFixture('sidecar-config_dump.json'), 'utf8')),
      JSON.parse(readFileSync(configDumpFixture('sidecar-config_dump_diff.json'), 'utf8')),
    );
    const r = d.resources.find((x) => x.name === 'connect_terminate')!;
    const hitsA = printWithPaths(r.meshscope, r.paths!).filter((l) => l.hit);
    expect(hitsA.map((l) => l.text.trim())).toEqual(['"use_remote_address": false,']);
    expect(printWithPaths(r.envoy, r.paths!).filter((l) => l.hit)).toEqual([]);
    expect(driftSummary(d.counts)).toBe('2 changed, 2 only in Envoy, 2 only in meshscope');
    expect(driftSummary(d.counts, { expected: 'A.json', actual: 'B.json' })).toBe('2 changed, 2 only in B.json, 2 only in A.json');
  });
});
