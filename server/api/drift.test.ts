// POST /api/drift handler (issue 21 §2): `{expected, actual}` → the drift body without `proxy`; unusable
// input is a 400 naming the side, never a 500. The resource-level result on Istio's comparator pair is derived
// in server/drift/comparator.test.ts (istioctl/pkg/writer/compare).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DriftBody } from '../drift/types';
import { configDumpFixture } from '../testing/paths';
import { driftRequest } from './drift';

const dump = (f: string): unknown => JSON.parse(readFileSync(configDumpFixture(f), 'utf8'));

describe('POST /api/drift', () => {
  it('answers the drift body (exactly its keys) for two dumps', () => {
    const r = driftRequest({ expected: dump('sidecar-config_dump.json'), actual: dump('sidecar-config_dump_diff.json') });
    expect(r.status).toBe(200);
    const b = r.body as DriftBody;
    expect(Object.keys(b).sort()).toEqual(['counts', 'ignored', 'inSync', 'nacked', 'resources', 'routes']);
    expect(Object.keys(b.counts)).toEqual(['listeners', 'routes', 'clusters', 'endpoints']);
    expect(b.inSync).toBe(false);
    expect(b.resources).toHaveLength(6);
    expect(b.resources[0]).toMatchObject({ type: 'listeners', name: 'connect_terminate', change: 'changed' });
    expect(b.resources[0]!.meshscope).toBeDefined();
    expect(b.resources[0]!.envoy).toBeDefined();
  });

  it('400s for a missing side, an extra key, or a dump without configs', () => {
    const a = dump('sidecar-config_dump.json');
    expect(driftRequest({ expected: a })).toEqual({ status: 400, body: { error: 'actual is required (an Envoy config_dump JSON)' } });
    expect(driftRequest({ expected: a, actual: a, proxy: 'x' }).status).toBe(400);
    expect(driftRequest([a, a]).status).toBe(400);
    expect(driftRequest({ expected: a, actual: { configs: 'no' } })).toEqual({
      status: 400,
      body: { error: 'unusable config dump: actual: config dump has no "configs" array' },
    });
  });
});
