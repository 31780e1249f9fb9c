// Kiali's graph types over the overview graph. What a node is follows Kiali's graph.Id (graph/types.go:
// `wl_` per workload in workload/service graphs, `vapp_` per workload in the versioned-app graph, `app_` per
// app label otherwise) and the service graph follows telemetry.ReduceToServiceGraph (service → service
// through the workloads behind the first; root workloads kept). App and version are Istio's canonical
// service and revision (pkg/kube/labels CanonicalService: canonical-name, app.kubernetes.io/name, app, else
// the workload name; canonical-revision, app.kubernetes.io/version, version, else `latest`). Expected
// values below are read off the inputs declared here.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot, istio, pod, service } from '../translate/testing/meshBuilder';
import { buildMeshGraph, nodeId } from './graph';
import { appNodeId, toGraphType, type TypedEdge } from './graphType';

const dep = (name: string) => ({ kind: 'Deployment', name });
// Two replicas of one client workload, two versions of reviews, ratings behind reviews, an ingress gateway.
const web1 = pod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' }, owner: dep('web') });
const web2 = pod('web-2', 'shop', '10.0.0.2', { labels: { app: 'web' }, owner: dep('web') });
const rv1 = pod('reviews-v1-a', 'shop', '10.0.0.3', { labels: { app: 'reviews', version: 'v1' }, owner: dep('reviews-v1') });
const rv2 = pod('reviews-v2-a', 'shop', '10.0.0.4', { labels: { app: 'reviews', version: 'v2' }, owner: dep('reviews-v2') });
const rat = pod('ratings-a', 'shop', '10.0.0.5', {
  labels: { 'service.istio.io/canonical-name': 'ratings', app: 'stars', 'app.kubernetes.io/version': 'v7' },
  owner: dep('ratings-v1'),
});
const gw = pod('gw-1', 'istio-system', '10.0.0.9', { labels: { istio: 'ingressgateway' }, proxy: 'router', owner: dep('gw') });

const REVIEWS = service('reviews', 'shop');
const RATINGS = service('ratings', 'shop', { selector: { 'service.istio.io/canonical-name': 'ratings' } });
const WEB = service('web', 'shop');

const dr = istio('DestinationRule', 'reviews', 'shop', {
  host: 'reviews',
  subsets: [
    { name: 'v1', labels: { version: 'v1' } },
    { name: 'v2', labels: { version: 'v2' } },
  ],
});
const split = istio('VirtualService', 'reviews', 'shop', {
  hosts: ['reviews'],
  http: [
    {
      route: [
        { destination: { host: 'reviews', subset: 'v1' }, weight: 80 },
        { destination: { host: 'reviews', subset: 'v2' }, weight: 20 },
      ],
    },
  ],
});
const ratingsVs = istio('VirtualService', 'ratings', 'shop', {
  hosts: ['ratings'],
  http: [{ route: [{ destination: { host: 'ratings' } }] }],
});

const base = buildMeshGraph(
  buildSnapshot({ services: [REVIEWS, RATINGS, WEB], pods: [web1, web2, rv1, rv2, rat, gw], configs: [dr, split, ratingsVs] }),
  DEFAULT_OPTIONS,
);
const svcId = (s: typeof REVIEWS) => nodeId.service(s);
const wl = (name: string) => nodeId.workload('shop', 'Deployment', name);
const routesOf = (edges: TypedEdge[]) => edges.filter((e) => e.kind === 'route');
const between = (edges: TypedEdge[], s: string, t: string) => edges.filter((e) => e.source === s && e.target === t && e.kind === 'route');

describe('toGraphType: versionedApp (the overview default)', () => {
  const g = toGraphType(base, 'versionedApp');

  it('one node per workload, labelled by version and boxed by app when the app has several workloads', () => {
    const box = g.nodes.find((n) => n.id === appNodeId('shop', 'reviews'))!;
    expect(box.kind).toBe('app');
    const inBox = g.nodes.filter((n) => n.parent === box.id);
    expect(inBox.map((n) => [n.id, n.label]).sort()).toEqual([
      [wl('reviews-v1'), 'v1'],
      [wl('reviews-v2'), 'v2'],
    ]);
    // One workload of an app: no box; the canonical labels win over `app` (canonical-name, app.kubernetes.io/version).
    expect(g.nodes.find((n) => n.id === wl('ratings-v1'))).toMatchObject({ label: 'ratings v7', parent: nodeId.namespace('shop') });
    // No version label: Istio's `latest`, not worth drawing.
    expect(g.nodes.find((n) => n.id === wl('web'))!.label).toBe('web');
    expect(g.nodes.some((n) => n.kind === 'proxy' || n.kind === 'pod')).toBe(false);
  });

  it('the two web pods and identical rules merge into one edge carrying the 80/20 split', () => {
    const e = between(g.edges, wl('web'), svcId(REVIEWS));
    expect(e).toHaveLength(1);
    expect(e[0]!.merged).toBe(4); // 2 pods × 2 subsets
    expect(e[0]!.split).toBe(true);
    expect(e[0]!.splits).toEqual([
      { subset: 'v1', configuredPercent: 80 },
      { subset: 'v2', configuredPercent: 20 },
    ]);
    expect(e[0]!.routes).toEqual([
      { virtualService: 'shop/reviews', rule: 'http[0]', match: 'any', subset: 'v1', percent: 80, split: true },
      { virtualService: 'shop/reviews', rule: 'http[0]', match: 'any', subset: 'v2', percent: 20, split: true },
    ]);
  });

  it('endpoint edges go from the service to each version node, once per workload', () => {
    const eps = g.edges.filter((e) => e.kind === 'endpoint' && e.source === svcId(REVIEWS));
    expect(eps.map((e) => e.target).sort()).toEqual([wl('reviews-v1'), wl('reviews-v2')]);
    const web = g.edges.filter((e) => e.kind === 'endpoint' && e.source === svcId(WEB));
    expect(web.map((e) => [e.target, e.merged])).toEqual([[wl('web'), 2]]);
  });

  it('a node standing for one proxy links to it; the gateway keeps its badge', () => {
    expect(g.nodes.find((n) => n.id === wl('reviews-v1'))!.proxyId).toBe('reviews-v1-a.shop');
    expect(g.nodes.find((n) => n.id === wl('web'))!.proxyId).toBeUndefined();
    const gwNode = g.nodes.find((n) => n.id === nodeId.workload('istio-system', 'Deployment', 'gw'))!;
    expect(gwNode.badges.map((b) => b.kind)).toEqual(['gateway']);
    expect(gwNode.proxyType).toBe('router');
  });
});

describe('toGraphType: app, workload, service, proxy', () => {
  it('app: the versions of reviews are one node; its calls to ratings are one edge', () => {
    const g = toGraphType(base, 'app');
    const apps = g.nodes.filter((n) => n.kind === 'app').map((n) => n.label);
    expect(apps.sort()).toEqual(['gw', 'ratings', 'reviews', 'web']);
    expect(g.nodes.some((n) => n.kind === 'workload')).toBe(false);
    const toRatings = between(g.edges, appNodeId('shop', 'reviews'), svcId(RATINGS));
    expect(toRatings).toHaveLength(1);
    expect(toRatings[0]!.merged).toBe(2); // reviews-v1 and reviews-v2 each route to ratings
    expect(toRatings[0]!.splits).toEqual([{}]); // no subset, no split: nothing to draw a number for
  });

  it('workload: one leaf node per workload; no proxies', () => {
    const g = toGraphType(base, 'workload');
    const w = g.nodes.filter((n) => n.kind === 'workload');
    expect(w.map((n) => n.label).sort()).toEqual(['gw', 'ratings-v1', 'reviews-v1', 'reviews-v2', 'web']);
    expect(w.every((n) => !g.nodes.some((m) => m.parent === n.id))).toBe(true);
    expect(between(g.edges, wl('reviews-v1'), svcId(RATINGS))).toHaveLength(1);
  });

  it('service: web → reviews → ratings through the workloads; no endpoint edges', () => {
    const g = toGraphType(base, 'service');
    expect(g.edges.some((e) => e.kind === 'endpoint')).toBe(false);
    expect(between(g.edges, svcId(WEB), svcId(REVIEWS))[0]!.splits).toEqual([
      { subset: 'v1', configuredPercent: 80 },
      { subset: 'v2', configuredPercent: 20 },
    ]);
    // reviews-v1 and reviews-v2 both sit behind reviews: one reviews → ratings edge.
    expect(between(g.edges, svcId(REVIEWS), svcId(RATINGS))).toHaveLength(1);
    // The gateway has no route to a service here (no Gateway binds a VirtualService): dropped, as Kiali drops a
    // root without edges to services.
    expect(g.nodes.some((n) => n.kind === 'workload')).toBe(false);
  });

  it('service: a workload no service selects (the gateway) stays as the root of its edges', () => {
    const gateway = istio('Gateway', 'gw', 'istio-system', {
      selector: { istio: 'ingressgateway' },
      servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*'] }],
    });
    const ingress = istio('VirtualService', 'web-in', 'shop', {
      hosts: ['*'],
      gateways: ['istio-system/gw'],
      http: [{ route: [{ destination: { host: 'web.shop.svc.cluster.local' } }] }],
    });
    const withGw = buildMeshGraph(
      buildSnapshot({
        services: [REVIEWS, RATINGS, WEB],
        pods: [web1, web2, rv1, rv2, rat, gw],
        configs: [dr, split, ratingsVs, gateway, ingress],
      }),
      DEFAULT_OPTIONS,
    );
    const g = toGraphType(withGw, 'service');
    const root = nodeId.workload('istio-system', 'Deployment', 'gw');
    expect(g.nodes.filter((n) => n.kind === 'workload').map((n) => n.id)).toEqual([root]);
    expect(between(g.edges, root, svcId(WEB))).toHaveLength(1);
  });

  it('proxy: the graph as built', () => {
    const g = toGraphType(base, 'proxy');
    expect(g.nodes).toBe(base.nodes);
    expect(g.edges).toBe(base.edges);
    expect(g.graphType).toBe('proxy');
  });
});

describe('toGraphType: observed traffic (Kiali edge percentage)', () => {
  // Observed data per (source workload, destination service, subset), as /api/graph?traffic=1 puts it on each
  // per-proxy edge: both web pods' edges carry the web workload's numbers (once, not twice).
  const withTraffic = {
    ...base,
    edges: base.edges.map((e) => {
      if (e.kind !== 'route' || !e.source.startsWith('proxy:web-')) return e;
      const rps = e.subset === 'v1' ? 7.5 : e.subset === 'v2' ? 2.5 : 0;
      return { ...e, observed: { requestsPerSecond: rps, percent: 0, errorPercent: e.subset === 'v2' ? 40 : 0 } };
    }),
  };
  const g = toGraphType(withTraffic, 'versionedApp');
  const e = between(g.edges, wl('web'), svcId(REVIEWS))[0]!;

  it('per subset: the workload counted once; the share of the edge beside the configured one', () => {
    expect(e.splits).toEqual([
      { subset: 'v1', configuredPercent: 80, observed: { requestsPerSecond: 7.5, percent: 75, errorPercent: 0 } },
      { subset: 'v2', configuredPercent: 20, observed: { requestsPerSecond: 2.5, percent: 25, errorPercent: 40 } },
    ]);
  });

  it('per edge: the total, errors weighted by requests, and the share of the source node’s outgoing requests', () => {
    // web only calls reviews: 100% of its requests; 1 of 10 req/s failed → 10%.
    expect(e.observed).toEqual({ requestsPerSecond: 10, percent: 100, errorPercent: 10 });
  });

  it('edges without observed data carry none', () => {
    expect(
      routesOf(g.edges)
        .filter((x) => x.source !== wl('web'))
        .every((x) => x.observed === undefined),
    ).toBe(true);
  });
});
