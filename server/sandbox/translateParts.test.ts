// The sandbox's partial translation agrees with translateProxy, and the blast radius agrees with the exact
// oracle (pipeline/changes.ts diffProxies: every proxy translated and encoded on both sides, digests compared).
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { createCache } from '../pipeline/cache';
import { diffProxies, proxyDigests } from '../impact/changes';
import type { ProxyResources } from '../pipeline/proxyResources';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { translateProxy } from '../translate/index';
import { buildProxyView } from '../translate/view';
import { evaluate } from './evaluate';
import { bookinfoBase, readBookinfo, reviewsSplit } from './testing';
import { sidecarListenersAndRoutes } from './translateParts';

const demo = () => {
  const { inputs } = loadPaths([`${REPO_ROOT}/examples/demo`]);
  return { snapshot: buildSnapshot(inputs, { version: 1 }), inputs };
};

describe('sidecarListenersAndRoutes', () => {
  it.each([
    ['bookinfo', bookinfoBase],
    ['demo', demo],
  ])('%s: every sidecar’s listeners, route configs and provenance equal translateProxy’s', (_, make) => {
    const { snapshot } = make();
    for (const p of snapshot.proxies.filter((x) => x.type === 'sidecar')) {
      const full = translateProxy(snapshot, p, DEFAULT_OPTIONS);
      const part = sidecarListenersAndRoutes(buildProxyView(snapshot, p, DEFAULT_OPTIONS));
      expect(part.listeners, p.id).toEqual(full.listeners);
      expect(part.routes, p.id).toEqual(full.routes);
      expect(part.provenance, p.id).toEqual(full.provenance);
    }
  });
});

describe('blast radius = the exact per-proxy digest diff', () => {
  const productsVs = (w: number) =>
    `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: products, namespace: catalog}\nspec:\n  hosts: [products.catalog.svc.cluster.local]\n  http:\n  - route:\n    - {destination: {host: products.catalog.svc.cluster.local, subset: v1}, weight: ${w}}\n    - {destination: {host: products.catalog.svc.cluster.local, subset: v2}, weight: ${100 - w}}\n`;
  const dr =
    'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: products, namespace: catalog}\nspec:\n  host: products.catalog.svc.cluster.local\n  subsets: [{name: v1, labels: {version: v1}}]\n';
  const sidecar =
    'apiVersion: networking.istio.io/v1\nkind: Sidecar\nmetadata: {name: default, namespace: shop}\nspec:\n  egress: [{hosts: ["./*"]}]\n';
  it.each([
    ['bookinfo: jason-v2-v3', bookinfoBase, readBookinfo('networking/virtual-service-reviews-jason-v2-v3.yaml')],
    ['bookinfo: 50/50', bookinfoBase, reviewsSplit({ v1: 50, v2: 50 })],
    ['demo: products 50/50', demo, productsVs(50)],
    ['demo: a DestinationRule', demo, dr],
    ['demo: a Sidecar scoping shop', demo, sidecar],
    ['demo: a Sidecar + a VirtualService', demo, `${sidecar}---\n${productsVs(10)}`],
  ])('%s', (_, make, draft) => {
    const base = make();
    const { result, draft: snap } = evaluate(base, draft);
    expect(result.errors).toEqual([]);
    const cache = createCache<ProxyResources>(64);
    const exact = diffProxies(proxyDigests(base.snapshot, DEFAULT_OPTIONS, cache), snap, DEFAULT_OPTIONS, createCache<ProxyResources>(64));
    expect(result.blastRadius.map((b) => b.proxy)).toEqual(exact.changed);
    expect(exact.changed.length).toBeGreaterThan(0);
  });
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
