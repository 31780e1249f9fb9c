// IST0151–IST0155 on files, loaded as `meshscope analyze --config FILE` loads them: meshscope's own scenario files
// (testdata/envoyfilter/*.yaml) for each of Istio's EnvoyPatchAnalyzer cases in
// pkg/config/analysis/analyzers/analyzers_test.go, compared as its ConsistOf does (code and object, every finding,
// nothing more). The acceptance run on Istio's own testdata files is in docs/envoyfilter.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { analyze } from './index';

const file = (name: string) => join(import.meta.dirname, 'testdata', 'envoyfilter', name);

function run(name: string) {
  const r = loadPaths([file(name)]);
  const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
  const all = analyze(snapshot).findings;
  return {
    patch: all
      .filter((f) => /^IST015[1-5]$/.test(f.code))
      .map((f) => `${f.code} ${f.object}`)
      .sort(),
    schema: all.filter((f) => f.code === 'IST0106').map((f) => `${f.object} ${f.path}: ${f.message}`),
  };
}

describe('EnvoyPatchAnalyzer on scenario files (analyzers_test.go cases)', () => {
  it('"EnvoyFilterUsesRelativeOperation": IST0151 per relative EnvoyFilter without priority, IST0155 for the versioned pair', () => {
    const r = run('relative.yaml');
    expect(r.patch).toEqual([
      'IST0151 EnvoyFilter shop/cart-after-fault',
      'IST0151 EnvoyFilter shop/ratings-header-before-router',
      'IST0151 EnvoyFilter shop/versioned-pair',
      'IST0155 EnvoyFilter shop/versioned-pair',
    ]);
    expect(r.schema).toEqual([]);
  });

  it('"EnvoyFilterUsesAbsoluteOperation" and "EnvoyFilterFilterChainMatch": nothing', () => {
    const r = run('absolute.yaml');
    expect(r.patch).toEqual([]);
    expect(r.schema).toEqual([]);
  });

  it('"EnvoyFilterUsesReplaceOperation": IST0152 on a CLUSTER REPLACE; one IST0151 and one IST0155 for the EnvoyFilter with four REPLACEs', () => {
    const r = run('replace.yaml');
    expect(r.patch).toEqual([
      'IST0151 EnvoyFilter shop/replace-many',
      'IST0152 EnvoyFilter shop/replace-cluster',
      'IST0155 EnvoyFilter shop/replace-many',
    ]);
    expect(r.schema).toEqual([]);
  });

  it('"EnvoyFilterUsesAddOperation" and "EnvoyFilterUsesRemoveOperation"', () => {
    const r = run('add-remove.yaml');
    expect(r.patch).toEqual([
      'IST0151 EnvoyFilter shop/remove-hcm',
      'IST0151 EnvoyFilter shop/remove-tcp-proxy',
      'IST0153 EnvoyFilter shop/add-route',
      'IST0153 EnvoyFilter shop/add-route-config',
      'IST0154 EnvoyFilter shop/remove-route',
      'IST0154 EnvoyFilter shop/remove-route-config',
    ]);
    // The patch-less patch is what istiod's webhook rejects; the analyzer stops at it (no IST0151 for the REMOVE after).
    expect(r.schema).toEqual([
      'EnvoyFilter shop/no-patch-first spec.configPatches[0].patch: Schema validation error: Envoy filter: missing patch',
    ]);
  });
});

describe('meshscope analyze on a file of EnvoyFilters only', () => {
  it('loads it (EnvoyFilters are usable input), prints the findings and exits 1 on the IST0152 error', () => {
    const r = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'meshscope.mjs'), 'analyze', '--config', file('replace.yaml'), '-o', 'json'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.stderr).not.toContain('nothing usable');
    expect(r.status).toBe(1);
    const codes = (JSON.parse(r.stdout) as Array<{ code: string; object: string }>).map((f) => `${f.code} ${f.object}`).sort();
    expect(codes).toEqual([
      'IST0151 EnvoyFilter shop/replace-many',
      'IST0152 EnvoyFilter shop/replace-cluster',
      'IST0155 EnvoyFilter shop/replace-many',
    ]);
  });
});
