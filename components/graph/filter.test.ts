// Filtering the overview graph (hand-built graph): namespace seeds + neighbours, focus, hidden kinds
// re-parented, edge kinds, and the URL round trip.
import { describe, expect, it } from 'vitest';
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { DEFAULT_FILTER, filterGraph, filterToParams, namespacesOf, parseFilter, type GraphFilter } from './filter';

const n = (id: string, kind: MeshNode['kind'], namespace: string, parent?: string): MeshNode => ({
  id,
  kind,
  label: id,
  namespace,
  badges: [],
  ...(parent ? { parent } : {}),
});
const e = (kind: MeshEdge['kind'], source: string, target: string): MeshEdge => ({
  id: `${kind}:${source}->${target}`,
  kind,
  source,
  target,
  label: '',
});

// shop: web proxy → (route) catalog/products; products → endpoints on products pod (catalog);
// web → (default) shop/cart; data: db pod (no proxy), nothing routes to it.
const nodes: MeshNode[] = [
  n('ns:shop', 'namespace', 'shop'),
  n('ns:catalog', 'namespace', 'catalog'),
  n('ns:data', 'namespace', 'data'),
  n('svc:shop/cart', 'service', 'shop', 'ns:shop'),
  n('svc:catalog/products', 'service', 'catalog', 'ns:catalog'),
  n('wl:shop/web', 'workload', 'shop', 'ns:shop'),
  n('wl:catalog/products', 'workload', 'catalog', 'ns:catalog'),
  n('wl:data/db', 'workload', 'data', 'ns:data'),
  n('proxy:web', 'proxy', 'shop', 'wl:shop/web'),
  n('proxy:products', 'proxy', 'catalog', 'wl:catalog/products'),
  n('pod:db', 'pod', 'data', 'wl:data/db'),
];
const edges: MeshEdge[] = [
  e('route', 'proxy:web', 'svc:catalog/products'),
  e('default', 'proxy:web', 'svc:shop/cart'),
  e('endpoint', 'svc:catalog/products', 'proxy:products'),
];
const g = { nodes, edges };
const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
const f = (o: Partial<GraphFilter>): GraphFilter => ({ ...DEFAULT_FILTER, ...o });

describe('filterGraph', () => {
  it('the default filter keeps every node and hides only default-route edges', () => {
    const r = filterGraph(g, DEFAULT_FILTER);
    expect(r.nodes).toHaveLength(nodes.length);
    expect(r.edges.map((x) => x.kind)).toEqual(['route', 'endpoint']);
  });

  it('a namespace keeps its leaves plus the other end of their edges, with those ends’ parents', () => {
    const r = filterGraph(g, f({ namespaces: ['shop'] }));
    expect(ids(r.nodes)).toEqual(['ns:catalog', 'ns:shop', 'proxy:web', 'svc:catalog/products', 'svc:shop/cart', 'wl:shop/web'].sort());
    expect(ids(r.edges)).toEqual(['route:proxy:web->svc:catalog/products']);
    expect(r.nodes.some((x) => x.id === 'ns:data')).toBe(false);
  });

  it('focus on a service keeps it and its direct neighbours only', () => {
    const r = filterGraph(g, f({ focus: 'svc:catalog/products' }));
    expect(ids(r.nodes)).toEqual(
      ['ns:catalog', 'ns:shop', 'proxy:products', 'proxy:web', 'svc:catalog/products', 'wl:catalog/products', 'wl:shop/web'].sort(),
    );
    expect(r.edges).toHaveLength(2);
  });

  it('focus on a workload (compound) selects its members', () => {
    const r = filterGraph(g, f({ focus: 'wl:data/db' }));
    expect(ids(r.nodes)).toEqual(['ns:data', 'pod:db', 'wl:data/db']);
  });

  it('hiding workloads re-parents proxies to their namespace; hiding services drops their edges', () => {
    const r = filterGraph(g, f({ hiddenKinds: ['workload', 'service'] }));
    expect(r.nodes.find((x) => x.id === 'proxy:web')!.parent).toBe('ns:shop');
    expect(r.nodes.some((x) => x.kind === 'workload' || x.kind === 'service')).toBe(false);
    expect(r.edges).toEqual([]);
  });

  it('hiding proxies collapses them into their workload, which takes over their edges (deduplicated)', () => {
    const web2 = n('proxy:web2', 'proxy', 'shop', 'wl:shop/web');
    const twice = { nodes: [...nodes, web2], edges: [...edges, { ...e('route', 'proxy:web2', 'svc:catalog/products'), id: 'second' }] };
    const r = filterGraph(twice, f({ hiddenKinds: ['proxy'] }));
    expect(r.nodes.some((x) => x.kind === 'proxy')).toBe(false);
    expect(r.edges.map((x) => [x.kind, x.source, x.target])).toEqual([
      ['route', 'wl:shop/web', 'svc:catalog/products'],
      ['endpoint', 'svc:catalog/products', 'wl:catalog/products'],
    ]);
    expect(r.nodes.find((x) => x.id === 'wl:shop/web')!.parent).toBe('ns:shop');
  });

  it('hiding namespaces leaves workloads without a parent', () => {
    const r = filterGraph(g, f({ hiddenKinds: ['namespace'] }));
    expect(r.nodes.find((x) => x.id === 'wl:shop/web')!.parent).toBeUndefined();
  });

  it('edge kinds select edges; a namespace with nothing in it yields an empty graph', () => {
    expect(filterGraph(g, f({ edgeKinds: ['default'] })).edges.map((x) => x.kind)).toEqual(['default']);
    expect(filterGraph(g, f({ namespaces: ['nope'] })).nodes).toEqual([]);
  });

  it('does not mutate its input', () => {
    const before = JSON.stringify(g);
    filterGraph(g, f({ hiddenKinds: ['workload'] }));
    expect(JSON.stringify(g)).toBe(before);
  });
});

describe('filter URL state', () => {
  it('round-trips and writes only what differs from the default', () => {
    const x = f({ namespaces: ['shop', 'catalog'], hiddenKinds: ['pod'], edgeKinds: ['route'], focus: 'svc:shop/cart' });
    const p = filterToParams(x);
    expect(p.toString()).toBe('ns=shop%2Ccatalog&hide=pod&edges=route&focus=svc%3Ashop%2Fcart');
    expect(parseFilter(p)).toEqual(x);
    expect(filterToParams(DEFAULT_FILTER).toString()).toBe('');
    expect(parseFilter(new URLSearchParams())).toEqual(DEFAULT_FILTER);
  });

  it('ignores unknown kinds', () => {
    expect(parseFilter(new URLSearchParams('hide=pod,bogus&edges=route,nope'))).toMatchObject({
      hiddenKinds: ['pod'],
      edgeKinds: ['route'],
    });
  });

  it('namespacesOf lists namespace nodes sorted', () => {
    expect(namespacesOf(g)).toEqual(['catalog', 'data', 'shop']);
  });
});

describe('filterGraph on a graph type (workloads and apps without members are leaves)', () => {
  // versionedApp-shaped: web (a leaf workload) → products; products box holding v1, v2 (leaf workloads).
  const typed: MeshNode[] = [
    n('ns:shop', 'namespace', 'shop'),
    n('ns:catalog', 'namespace', 'catalog'),
    n('wl:shop/web', 'workload', 'shop', 'ns:shop'),
    n('svc:catalog/products', 'service', 'catalog', 'ns:catalog'),
    n('app:catalog/products', 'app', 'catalog', 'ns:catalog'),
    n('wl:catalog/products-v1', 'workload', 'catalog', 'app:catalog/products'),
    n('wl:catalog/products-v2', 'workload', 'catalog', 'app:catalog/products'),
  ];
  const typedEdges = [
    e('route', 'wl:shop/web', 'svc:catalog/products'),
    e('endpoint', 'svc:catalog/products', 'wl:catalog/products-v1'),
    e('endpoint', 'svc:catalog/products', 'wl:catalog/products-v2'),
  ];

  it('keeps leaf workloads and their edges; the app box stays as their parent', () => {
    const f = filterGraph({ nodes: typed, edges: typedEdges }, DEFAULT_FILTER);
    expect(f.nodes.map((x) => x.id)).toEqual(typed.map((x) => x.id));
    expect(f.edges).toHaveLength(3);
  });

  it('focus on the app box: its versions and their neighbours', () => {
    const f = filterGraph({ nodes: typed, edges: typedEdges }, { ...DEFAULT_FILTER, focus: 'app:catalog/products' });
    expect(f.nodes.map((x) => x.id).sort()).toEqual(
      ['ns:catalog', 'svc:catalog/products', 'app:catalog/products', 'wl:catalog/products-v1', 'wl:catalog/products-v2'].sort(),
    );
  });
});
