// Issue #26 §2: each view narrowed to the caller's namespaces, on the embedded demo mesh (shop, catalog,
// istio-system). A proxy outside them answers exactly as an unknown one (404, same text: no existence leak).
import { describe, expect, it } from 'vitest';
import type { Viewer } from '../auth/access';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { analyzeMesh } from './analyze';
import { inputErrors } from './debug';
import { meshGraph } from './graph';
import { listProxies, proxyDetail } from './proxies';
import { evaluateSandbox } from './sandbox';
import type { ApiContext } from './types';
import {
  draftOutsideView,
  hiddenMeshConfig,
  hiddenProxy,
  objectNamespace,
  scopeErrors,
  scopeEvaluation,
  scopeFindings,
  scopeGraph,
  scopeProxies,
  wholeMeshOnly,
} from './visibility';

const r = loadPaths([`${REPO_ROOT}/examples/demo`]);
// The demo mesh as `serve` loads it: istiod with the ambient profile (runtime.ts DEMO_AMBIENT_REASON).
const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors, ambient: true });
const base: ApiContext = { snapshot, options: DEFAULT_OPTIONS, inputs: () => r.inputs };
const viewerOf = (namespaces: string[]): Viewer => ({
  user: 'alice',
  groups: [],
  all: false,
  via: 'session',
  sees: (ns) => ns === undefined || namespaces.includes(ns),
});
const shopOnly: ApiContext = { ...base, viewer: viewerOf(['shop']) };

describe('per-viewer views (issue #26 §2)', () => {
  it('objectNamespace reads `Kind ns/name`, cluster-scoped `Kind name`, and nothing', () => {
    expect(objectNamespace('VirtualService shop/cart')).toBe('shop');
    expect(objectNamespace('GatewayClass istio')).toBeUndefined();
    expect(objectNamespace(undefined)).toBeNull();
  });

  it("the proxy list holds only the viewer's namespaces; without a viewer, all of them", () => {
    const all = listProxies(base).body.proxies.map((p) => p.namespace);
    // orders (examples/demo/50-ambient.yaml) has one proxy: its waypoint; its enrolled pods have none.
    expect(new Set(all)).toEqual(new Set(['shop', 'catalog', 'istio-system', 'orders']));
    const shop = scopeProxies(shopOnly, listProxies(shopOnly)).body.proxies;
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.every((p) => p.namespace === 'shop')).toBe(true);
  });

  it('a proxy in a hidden namespace is 404 with the very text an unknown proxy gets', () => {
    const catalogPod = snapshot.proxies.find((p) => p.namespace === 'catalog');
    if (!catalogPod) throw new Error('demo has catalog pods');
    // proxies.ts answers an unknown id `proxy "ID" not found` (404); a hidden one gets exactly that.
    expect(proxyDetail(base, 'nope.catalog')).toEqual({ status: 404, body: { error: 'proxy "nope.catalog" not found' } });
    expect(hiddenProxy(shopOnly, catalogPod.id)).toEqual({ status: 404, body: { error: `proxy "${catalogPod.id}" not found` } });
    const shopPod = snapshot.proxies.find((p) => p.namespace === 'shop');
    expect(hiddenProxy(shopOnly, shopPod?.id ?? '')).toBeUndefined();
    expect(hiddenProxy(base, catalogPod.id)).toBeUndefined();
  });

  it("the overview graph keeps the viewer's nodes and the edges between them, with counts of what is left", () => {
    const g = scopeGraph(shopOnly, meshGraph(shopOnly)).body;
    expect(g.nodes.length).toBeGreaterThan(0);
    expect(g.nodes.every((n) => n.namespace === 'shop')).toBe(true);
    const ids = new Set(g.nodes.map((n) => n.id));
    expect(g.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    expect(g.counts.proxies).toBe(g.nodes.filter((n) => n.kind === 'proxy').length);
    expect(meshGraph(base).body.nodes.some((n) => n.namespace === 'catalog')).toBe(true);
  });

  it('findings and input errors only for objects of visible namespaces', () => {
    const f = scopeFindings(shopOnly, analyzeMesh(shopOnly)).body;
    expect(f.findings.every((x) => objectNamespace(x.object) === 'shop' || objectNamespace(x.object) === undefined)).toBe(true);
    expect(f.counts.Error + f.counts.Warning + f.counts.Info).toBe(f.findings.length);
    const e = scopeErrors(shopOnly, inputErrors(shopOnly)).body;
    expect(e.errors.every((x) => x.object && objectNamespace(x.object) !== 'catalog')).toBe(true);
  });

  it('the mesh config and whole-registry debug views need the root namespace / every namespace', () => {
    expect(hiddenMeshConfig(shopOnly)?.status).toBe(404);
    expect(hiddenMeshConfig({ ...base, viewer: viewerOf(['shop', 'istio-system']) })).toBeUndefined();
    expect(wholeMeshOnly(shopOnly)?.status).toBe(404);
    expect(wholeMeshOnly({ ...base, viewer: { ...viewerOf([]), all: true } })).toBeUndefined();
  });

  it('a sandbox draft over a hidden namespace is refused (403, naming the namespace); over a visible one, results are narrowed', () => {
    const overCatalog = evaluateSandbox(shopOnly, {
      draft:
        'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: products, namespace: catalog}\nspec: {hosts: [products], http: [{route: [{destination: {host: products}}]}]}\n',
    });
    if (overCatalog.status !== 200 || !('edits' in overCatalog.body)) throw new Error('evaluated');
    expect(draftOutsideView(shopOnly, overCatalog.body)).toMatchObject({
      status: 403,
      body: { error: expect.stringMatching(/namespace catalog/) },
    });
    const overShop = evaluateSandbox(shopOnly, {
      draft:
        'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: products-from-shop, namespace: shop}\nspec: {hosts: [products.catalog.svc.cluster.local], http: [{route: [{destination: {host: products.catalog.svc.cluster.local, subset: v1}}]}]}\n',
    });
    if (overShop.status !== 200 || !('edits' in overShop.body)) throw new Error('evaluated');
    expect(draftOutsideView(shopOnly, overShop.body)).toBeUndefined();
    const scoped = scopeEvaluation(shopOnly, { status: 200, body: overShop.body }).body;
    expect(scoped.blastRadius.every((b) => b.proxy.endsWith('.shop'))).toBe(true);
  });
});
