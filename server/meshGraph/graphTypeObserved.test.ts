// Observed traffic (#23 §1 `/api/graph?traffic=1`) through the graph types: the per-proxy graph annotated by
// server/prometheus/observed.ts attachObserved (per source workload, destination service and subset; Kiali's
// edge percentage), then merged by toGraphType: one workload counted once per subset however many pods, the
// observed split beside the configured one, unconfigured traffic kept. The rows are written here by hand
// from the graph's inputs (they are what Prometheus would answer).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot, istio, pod, service } from '../translate/testing/meshBuilder';
import { buildMeshGraph, nodeId } from './graph';
import { toGraphType } from './graphType';
import { attachObserved, type ObservedMeshEdge } from '../prometheus/observed';

const dep = (name: string) => ({ kind: 'Deployment', name });
const web1 = pod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' }, owner: dep('web') });
const web2 = pod('web-2', 'shop', '10.0.0.2', { labels: { app: 'web' }, owner: dep('web') });
const rv1 = pod('reviews-v1-a', 'shop', '10.0.0.3', { labels: { app: 'reviews', version: 'v1' }, owner: dep('reviews-v1') });
const rv2 = pod('reviews-v2-a', 'shop', '10.0.0.4', { labels: { app: 'reviews', version: 'v2' }, owner: dep('reviews-v2') });
const REVIEWS = 'reviews.shop.svc.cluster.local';
const WEB = 'web.shop.svc.cluster.local';
const base = buildMeshGraph(
  buildSnapshot({
    services: [service('reviews', 'shop'), service('web', 'shop')],
    pods: [web1, web2, rv1, rv2],
    configs: [
      istio('DestinationRule', 'reviews', 'shop', {
        host: 'reviews',
        subsets: [
          { name: 'v1', labels: { version: 'v1' } },
          { name: 'v2', labels: { version: 'v2' } },
        ],
      }),
      istio('VirtualService', 'reviews', 'shop', {
        hosts: ['reviews'],
        http: [
          {
            route: [
              { destination: { host: 'reviews', subset: 'v1' }, weight: 80 },
              { destination: { host: 'reviews', subset: 'v2' }, weight: 20 },
            ],
          },
        ],
      }),
    ],
  }),
  DEFAULT_OPTIONS,
);
const row = (sourceWorkload: string, host: string, subset: string, rps: number, err = 0) => ({
  sourceWorkload,
  sourceNamespace: 'shop',
  host,
  subset,
  version: subset,
  workload: subset ? `reviews-${subset}` : 'web',
  requestsPerSecond: rps,
  errorRequestsPerSecond: err,
});
// web: 6 req/s to v1, 2 to v2 (1 failing); reviews-v1 calls web 2 req/s (istiod's default route: no
// VirtualService for web).
const g = attachObserved(base, { pods: [web1, web2, rv1, rv2] }, [
  row('web', REVIEWS, 'v1', 6),
  row('web', REVIEWS, 'v2', 2, 1),
  row('reviews-v1', WEB, '', 2),
]);
const routeEdges = (src: string) => (g.edges as ObservedMeshEdge[]).filter((e) => e.kind === 'route' && e.source === nodeId.proxy(src));

describe('attachObserved, then toGraphType', () => {
  it('each pod of web carries its workload’s numbers per subset; percent of web’s outgoing requests', () => {
    for (const p of ['web-1.shop', 'web-2.shop'])
      expect(routeEdges(p).map((e) => [e.subset, e.observed])).toEqual([
        ['v1', { requestsPerSecond: 6, percent: 75, errorPercent: 0 }],
        ['v2', { requestsPerSecond: 2, percent: 25, errorPercent: 50 }],
      ]);
  });

  it('a configured path without traffic: zeros', () => {
    expect(routeEdges('reviews-v2-a.shop').map((e) => e.observed)).toEqual([
      { requestsPerSecond: 0, percent: 0, errorPercent: 0 },
      { requestsPerSecond: 0, percent: 0, errorPercent: 0 },
    ]);
  });

  it('traffic on a path istiod routes by default (no VirtualService for web) lands on the default edge', () => {
    const d = (g.edges as ObservedMeshEdge[]).filter(
      (e) => e.kind === 'default' && e.source === nodeId.proxy('reviews-v1-a.shop') && e.target === `svc:shop/${WEB}`,
    );
    expect(d.map((e) => e.observed)).toEqual([{ requestsPerSecond: 2, percent: 100, errorPercent: 0 }]);
    expect((g.edges as ObservedMeshEdge[]).some((e) => e.unconfigured)).toBe(false);
  });

  it('the versioned-app graph merges it: one web → reviews edge, the observed split beside the configured one', () => {
    const t = toGraphType(g, 'versionedApp');
    const e = t.edges.find((x) => x.kind === 'route' && x.source === 'wl:shop/Deployment/web' && x.target === `svc:shop/${REVIEWS}`)!;
    expect(e.splits).toEqual([
      { subset: 'v1', configuredPercent: 80, observed: { requestsPerSecond: 6, percent: 75, errorPercent: 0 } },
      { subset: 'v2', configuredPercent: 20, observed: { requestsPerSecond: 2, percent: 25, errorPercent: 50 } },
    ]);
    expect(e.observed).toEqual({ requestsPerSecond: 8, percent: 100, errorPercent: 12.5 });
    const d = t.edges.find((x) => x.kind === 'default' && x.source === 'wl:shop/Deployment/reviews-v1' && x.target === `svc:shop/${WEB}`)!;
    expect(d.observed).toEqual({ requestsPerSecond: 2, percent: 100, errorPercent: 0 });
  });
});
