// The agreed layering, checked (server/testing/layers.ts holds it as data): walks the imports of server/,
// components/, app/ and instrumentation.ts and fails on a file cycle, a folder cycle, an import up the
// layers, a component reaching into server code the browser must not load, or production code importing
// tests. Tests and their support files (isTestSupport) may use anything, so they are left out of the
// layer checks.
import { describe, expect, it } from 'vitest';
import { collapse, cycles, disallowedEdges, type ImportGraph, layerOf, readImportGraph, upwardEdges } from './testing/importGraph';
import { COMPONENTS_MAY_IMPORT, folderOf, isTestSupport, LAYERS } from './testing/layers';
import { REPO_ROOT } from './testing/paths';

function withoutTests(g: ImportGraph): ImportGraph {
  return new Map([...g].filter(([f]) => !isTestSupport(f)).map(([f, ds]) => [f, new Set([...ds].filter((d) => !isTestSupport(d)))]));
}

const fmt = (vs: { from: string; to: string; reason: string }[]) => vs.map((v) => `${v.from} → ${v.to}: ${v.reason}`);

describe('the checker (on tiny synthetic graphs, so it is known to fail when it should)', () => {
  const graph = (edges: [string, string][]): ImportGraph => {
    const g: ImportGraph = new Map();
    for (const [a, b] of edges) {
      g.set(a, (g.get(a) ?? new Set()).add(b));
      if (!g.has(b)) g.set(b, new Set());
    }
    return g;
  };
  it('finds a file cycle, and none in a DAG', () => {
    const g = graph([
      ['a.ts', 'b.ts'],
      ['b.ts', 'c.ts'],
      ['c.ts', 'a.ts'],
      ['c.ts', 'd.ts'],
    ]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      cycles(
        graph([
          ['a.ts', 'b.ts'],
          ['a.ts', 'c.ts'],
          ['b.ts', 'c.ts'],
        ]),
      ),
    ).toEqual([]);
  });
  it('finds a folder cycle made of acyclic files', () => {
    const g = graph([
      ['server/model/a.ts', 'server/sources/types.ts'],
      ['server/sources/store.ts', 'server/model/b.ts'],
    ]);
    expect(cycles(g)).toEqual([]);
    expect(cycles(collapse(g, folderOf))).toEqual([['server/model', 'server/sources']]);
  });
  it('flags an import up the layers, not one down or sideways', () => {
    const g = graph([
      ['server/pipeline/changes.ts', 'server/api/events.ts'],
      ['server/api/events.ts', 'server/pipeline/affected.ts'],
      ['server/translate/index.ts', 'server/simulate/x.ts'],
    ]);
    expect(upwardEdges(g, LAYERS).map((v) => `${v.from} → ${v.to}`)).toEqual(['server/pipeline/changes.ts → server/api/events.ts']);
  });
  it('flags a component importing a Node-only server module', () => {
    const g = graph([
      ['components/proxy/View.tsx', 'server/runtime.ts'],
      ['components/proxy/View.tsx', 'server/envoy/dumpModel/rows.ts'],
    ]);
    expect(disallowedEdges(g, 'components/', COMPONENTS_MAY_IMPORT, 'x').map((v) => v.to)).toEqual(['server/runtime.ts']);
  });
});

describe('the repo follows the layering', () => {
  const all = readImportGraph(REPO_ROOT, ['server', 'components', 'app', 'instrumentation.ts']);
  const g = withoutTests(all);

  it('reads a plausible graph (the scanner sees the imports)', () => {
    expect(g.size).toBeGreaterThan(200);
    expect(g.get('server/runtime.ts')?.size ?? 0).toBeGreaterThan(3);
  });
  it('production code never imports tests or test support', () => {
    const bad: string[] = [];
    for (const [f, ds] of all) if (!isTestSupport(f)) for (const d of ds) if (isTestSupport(d)) bad.push(`${f} → ${d}`);
    expect(bad).toEqual([]);
  });
  it('places every production file in a layer (a new folder must be added to LAYERS)', () => {
    expect([...g.keys()].filter((f) => !layerOf(f, LAYERS))).toEqual([]);
  });
  it('has no file cycle', () => {
    expect(cycles(g)).toEqual([]);
  });
  it('has no folder cycle', () => {
    expect(cycles(collapse(g, folderOf))).toEqual([]);
  });
  it('never imports up the layers', () => {
    expect(fmt(upwardEdges(g, LAYERS))).toEqual([]);
  });
  it("translate's view stage does not import its xds stage", () => {
    expect(
      fmt(
        disallowedEdges(
          g,
          'server/translate/view/',
          ['server/lib/', 'server/model/', 'server/translate/names.ts', 'server/translate/provenance.ts', 'server/translate/types.ts'],
          'view imports only model + lib',
        ).filter((v) => v.to.startsWith('server/translate/xds/')),
      ),
    ).toEqual([]);
  });
  it('components import only browser-safe server modules', () => {
    expect(fmt(disallowedEdges(g, 'components/', COMPONENTS_MAY_IMPORT, 'not browser-safe for components'))).toEqual([]);
  });
});
