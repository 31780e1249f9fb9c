// /debug/mesh (istiod's shape, pilot/pkg/xds/debug.go:MeshHandler: the MeshConfig in force as JSON) and
// GET /api/mesh (that config, where it came from, its options and its located problems), on real files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { optionsOf } from '../model/mesh';
import { defaultMeshConfig } from '../model/meshConfig';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { debugMesh, meshConfigView } from './meshConfig';
import type { ApiContext } from './types';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-api-mesh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ctxFor(yaml: string): ApiContext {
  const f = join(dir, `in-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(f, yaml);
  const r = loadPaths([f]);
  const snapshot = buildSnapshot(r.inputs, { version: 4, extraErrors: r.errors });
  return { snapshot, options: optionsOf(snapshot) };
}

const CM = (mesh: string) =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: istio, namespace: istio-system}',
    'data:',
    '  mesh: |',
    ...mesh.split('\n').map((l) => `    ${l}`),
  ].join('\n');

describe('/debug/mesh and /api/mesh', () => {
  it("without a mesh ConfigMap: istiod's defaults, origin defaults", () => {
    const ctx = ctxFor('apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n');
    expect(debugMesh(ctx).body).toEqual(defaultMeshConfig());
    const v = meshConfigView(ctx).body;
    expect(v.origin).toEqual({ source: 'defaults' });
    expect(v.options.outboundTrafficPolicy).toBe('ALLOW_ANY');
    expect(v.problems).toEqual([]);
  });

  it('the ConfigMap: merged config (proto3 JSON names, normalized durations), origin with file and document, problems', () => {
    const ctx = ctxFor(
      `apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n${CM('outboundTrafficPolicy: {mode: REGISTRY_ONLY}\nprotocolDetectionTimeout: 250ms\ntypo: 1\n')}\n`,
    );
    const mesh = debugMesh(ctx).body;
    expect(mesh.outboundTrafficPolicy).toEqual({ mode: 'REGISTRY_ONLY' });
    expect(mesh.protocolDetectionTimeout).toBe('0.250s');
    expect(mesh.enableAutoMtls).toBe(true);
    const v = meshConfigView(ctx).body;
    expect(v.version).toBe(4);
    expect(v.origin).toMatchObject({ source: 'configmap', doc: 1, object: 'ConfigMap istio-system/istio' });
    expect(v.origin.file).toMatch(/in-.*\.yaml$/);
    expect(v.options.protocolDetectionTimeout).toBe('0.250s');
    expect(v.problems).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'data.mesh.typo', object: 'ConfigMap istio-system/istio', doc: 1 }),
    ]);
  });
});
