// The sandbox's partial translation agrees with translateProxy, and the blast radius agrees with the exact
// oracle (pipeline/changes.ts diffProxies: every proxy translated and encoded on both sides, digests compared).
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { diffProxies, proxyDigests } from '../impact/changes';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { evaluate } from './evaluate';
import { dr, expectExactBlastRadius, expectPartsEqualFull, productsVs, sidecar } from './translateParts.testing';

const demo = () => {
  const { inputs } = loadPaths([`${REPO_ROOT}/examples/demo`]);
  return { snapshot: buildSnapshot(inputs, { version: 1 }), inputs };
};

describe('sidecarListenersAndRoutes', () => {
  // Bookinfo (../shared/fixtures): translateParts.bookinfo.test.ts, in the conformance group.
  it('demo: every sidecar’s listeners, route configs and provenance equal translateProxy’s', () => expectPartsEqualFull(demo()));
});

describe('blast radius = the exact per-proxy digest diff', () => {
  it.each([
    ['demo: products 50/50', productsVs(50)],
    ['demo: a DestinationRule', dr],
    ['demo: a Sidecar scoping shop', sidecar],
    ['demo: a Sidecar + a VirtualService', `${sidecar}---\n${productsVs(10)}`],
  ])('%s', (_, draft) => expectExactBlastRadius(demo(), draft));
});

describe('proxies of one shape share a translation', () => {
  it('generated mesh (30 services, 3 namespaces): a one-VirtualService draft translates one sidecar per namespace, same answer as the oracle', () => {
    const inputs = generateMesh({ services: 30, namespaces: 3 });
    const base = { snapshot: buildSnapshot(inputs, { version: 1 }), inputs };
    const draft = `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: svc-4, namespace: ns-1}\nspec:\n  hosts: [svc-4]\n  http:\n  - route:\n    - {destination: {host: svc-4, subset: v1}, weight: 50}\n    - {destination: {host: svc-4, subset: v2}, weight: 50}\n`;
    const { result, draft: snap } = evaluate(base, draft);
    const exact = diffProxies(proxyDigests(base.snapshot, DEFAULT_OPTIONS), snap, DEFAULT_OPTIONS);
    expect(result.blastRadius.map((b) => b.proxy)).toEqual(exact.changed);
    expect(exact.changed).toHaveLength(60); // every sidecar sees svc-4 (no Sidecar, exportTo everywhere)
    expect(result.stats).toMatchObject({ candidates: 60, translated: 3 });
  });
});
