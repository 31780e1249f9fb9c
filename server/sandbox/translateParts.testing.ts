// The checks translateParts.test.ts (the in-repo demo mesh) and translateParts.bookinfo.test.ts (Bookinfo from
// ../shared/fixtures, the conformance group) share: the sandbox's partial translation equals translateProxy,
// and the blast radius equals the exact oracle (impact/changes.ts diffProxies: every proxy translated and
// encoded on both sides, digests compared).
import { expect } from 'vitest';
import { diffProxies, proxyDigests } from '../impact/changes';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { createCache } from '../pipeline/cache';
import type { ProxyResources } from '../pipeline/proxyResources';
import { translateProxy } from '../translate/index';
import { buildProxyView } from '../translate/view';
import { evaluate } from './evaluate';
import type { SandboxBase } from './evaluate';
import { sidecarListenersAndRoutes } from './translateParts';

export const productsVs = (w: number): string =>
  `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: products, namespace: catalog}\nspec:\n  hosts: [products.catalog.svc.cluster.local]\n  http:\n  - route:\n    - {destination: {host: products.catalog.svc.cluster.local, subset: v1}, weight: ${w}}\n    - {destination: {host: products.catalog.svc.cluster.local, subset: v2}, weight: ${100 - w}}\n`;
export const dr =
  'apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: products, namespace: catalog}\nspec:\n  host: products.catalog.svc.cluster.local\n  subsets: [{name: v1, labels: {version: v1}}]\n';
export const sidecar =
  'apiVersion: networking.istio.io/v1\nkind: Sidecar\nmetadata: {name: default, namespace: shop}\nspec:\n  egress: [{hosts: ["./*"]}]\n';

export function expectPartsEqualFull({ snapshot }: Pick<SandboxBase, 'snapshot'>): void {
  for (const p of snapshot.proxies.filter((x) => x.type === 'sidecar')) {
    const full = translateProxy(snapshot, p, DEFAULT_OPTIONS);
    const part = sidecarListenersAndRoutes(buildProxyView(snapshot, p, DEFAULT_OPTIONS));
    expect(part.listeners, p.id).toEqual(full.listeners);
    expect(part.routes, p.id).toEqual(full.routes);
    expect(part.provenance, p.id).toEqual(full.provenance);
  }
}

export function expectExactBlastRadius(base: SandboxBase, draft: string): void {
  const { result, draft: snap } = evaluate(base, draft);
  expect(result.errors).toEqual([]);
  const cache = createCache<ProxyResources>(64);
  const exact = diffProxies(proxyDigests(base.snapshot, DEFAULT_OPTIONS, cache), snap, DEFAULT_OPTIONS, createCache<ProxyResources>(64));
  expect(result.blastRadius.map((b) => b.proxy)).toEqual(exact.changed);
  expect(exact.changed.length).toBeGreaterThan(0);
}
