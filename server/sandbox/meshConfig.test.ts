// A sandbox draft of the mesh ConfigMap (istio-system/istio): the draft side is translated with the draft's
// mesh config. Base: the mesh-registry-only golden (mesh-wide REGISTRY_ONLY; namespace `open` overrides it
// with its Sidecar). Draft: ALLOW_ANY mesh-wide. By sidecar_simulation_test.go:TestPassthroughTraffic and
// httproute.go:buildCatchAllVirtualHost, shop/web's catch-all moves BlackHoleCluster → PassthroughCluster
// (listeners) and block_all → allow_any (routes); open/client (its Sidecar already says ALLOW_ANY) does not change.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { evaluate } from './evaluate';

const IN = join(REPO_ROOT, 'server', 'translate', 'testdata', 'mesh-registry-only', 'in.yaml');

describe('evaluate: a draft of the mesh config', () => {
  it('ALLOW_ANY over a REGISTRY_ONLY mesh: only the proxies the mesh default reaches change', () => {
    const { inputs, errors } = loadPaths([IN]);
    expect(errors).toEqual([]);
    const base = { snapshot: buildSnapshot(inputs, { version: 1 }), inputs };
    const draft =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: istio, namespace: istio-system}\ndata:\n  mesh: |\n    outboundTrafficPolicy: {mode: ALLOW_ANY}\n';
    const { result } = evaluate(base, draft);
    expect(result.errors).toEqual([]);
    const web = base.snapshot.proxies.find((p) => p.namespace === 'shop')!.id;
    expect(result.blastRadius.map((e) => e.proxy)).toEqual([web]);
    expect(result.blastRadius[0]!.types).toEqual(expect.arrayContaining(['listeners', 'routes']));
    const json = JSON.stringify(result.diffs.find((d) => d.proxy === web));
    expect(json).toContain('allow_any');
    expect(json).toContain('block_all');
  });
});
