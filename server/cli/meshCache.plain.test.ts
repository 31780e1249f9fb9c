// What the CLI's cache of built snapshots (meshCache.ts) relies on instead of walking each snapshot it stores: a
// V8 serialization gives back exactly what buildSnapshot made only when that is plain data (objects, arrays, Maps,
// Sets, primitives: no class instance, accessor, symbol or function, which a deserialization would turn into
// something else). Checked here over every input family the CLI builds: each golden case's inputs (sidecar,
// gateway, Gateway API, ServiceEntry/WorkloadEntry, authz, PeerAuthentication, Sidecar, mesh-config cases), the
// same inputs built with --ambient, Istio's Bookinfo enrolled in ambient with a waypoint, and the issue-24 mesh
// through the CLI's own load path.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { goldenCaseNames, GOLDEN_ROOT } from '../translate/testing/goldenCases';
import { ambientBookinfoInputs } from '../translate/xds/waypoint/testing';
import { issueMesh, writeIssueMesh } from '../../bench/issueMesh';
import { loadMesh } from './load';
import { meshCache, plainData } from './meshCache';
import { fixturesDir } from '../testing/paths';

const content = (s: MeshSnapshot) => {
  const { memo: _memo, ...rest } = s;
  return rest;
};

const caseInputs = (name: string) => {
  const spec = JSON.parse(readFileSync(join(GOLDEN_ROOT, name, 'case.json'), 'utf8')) as { inputs: string[] };
  return loadPaths(spec.inputs.map((p) => (p.startsWith('fixtures:') ? join(fixturesDir(), p.slice(9)) : join(GOLDEN_ROOT, name, p))));
};

describe('buildSnapshot makes plain data (what the snapshot cache stores without walking it)', () => {
  const names = [...goldenCaseNames({ fixtures: false }), ...goldenCaseNames({ fixtures: true })];

  it('over every golden case, built as a sidecar mesh and with --ambient', () => {
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const { inputs, errors } = caseInputs(name);
      for (const ambient of [false, true]) {
        const s = buildSnapshot(inputs, { version: 1, extraErrors: errors, ...(ambient ? { ambient: true } : {}) });
        expect(plainData(content(s)), `${name}${ambient ? ' (ambient)' : ''}`).toBe(true);
      }
    }
  });

  it('for Bookinfo in ambient with a waypoint', () => {
    const s = buildSnapshot(ambientBookinfoInputs({ useWaypoint: true }), { version: 1, ambient: true });
    expect(s.ambient).toBeDefined();
    expect(plainData(content(s))).toBe(true);
  });

  it("for the issue-24 mesh through the CLI's load path", async () => {
    const dir = writeIssueMesh(issueMesh(40, 4), 'multidoc').dir;
    try {
      const noCache = meshCache({ dir: join(dir, 'cache'), buildId: 'b', minInputBytes: Number.MAX_SAFE_INTEGER });
      const { snapshot } = await loadMesh([dir], { meshCache: noCache });
      expect(snapshot.proxies.length).toBeGreaterThan(40);
      expect(plainData(content(snapshot))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the check itself refuses what a deserialization would change', () => {
    class Kept {
      x = 1;
    }
    const s = buildSnapshot(caseInputs(names[0]!).inputs, { version: 1 });
    expect(plainData({ ...content(s), extra: new Kept() })).toBe(false);
  });
});
