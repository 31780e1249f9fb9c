// The overview graph built from hand-built snapshots. Expected edges follow istiod's route rules
// (pilot/pkg/networking/core/route/route.go BuildHTTPRoutesForVirtualService, sourceMatchHTTP,
// translateRoute weights; BuildSidecarVirtualHostWrapper ownership) as stated in istio-translation.md §4–5.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type IstioConfig, type ServiceModel } from '../model/mesh';
import { buildSnapshot, istio, pod, service } from '../translate/testing/meshBuilder';
import { buildMeshGraph, nodeId } from './graph';
import { describeHttpMatch, shares } from './routes';

const web = pod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' }, owner: { kind: 'Deployment', name: 'web' } });
const rv1 = pod('reviews-v1-a', 'shop', '10.0.0.2', {
  labels: { app: 'reviews', version: 'v1' },
  owner: { kind: 'Deployment', name: 'reviews-v1' },
});
const rv2 = pod('reviews-v2-a', 'shop', '10.0.0.3', {
  labels: { app: 'reviews', version: 'v2' },
  owner: { kind: 'Deployment', name: 'reviews-v2' },
});
const db = pod('db-0', 'data', '10.0.0.4', { labels: { app: 'db' }, proxy: 'none', owner: { kind: 'StatefulSet', name: 'db' } });
const gw = pod('gw-1', 'istio-system', '10.0.0.5', {
  labels: { istio: 'ingressgateway' },
  proxy: 'router',
  owner: { kind: 'Deployment', name: 'gw' },
});

const reviews = service('reviews', 'shop');
const webSvc = service('web', 'shop');
const dbSvc = service('db', 'data');
const REVIEWS = 'reviews.shop.svc.cluster.local';

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
      name: 'jason',
      match: [{ headers: { 'end-user': { exact: 'jason' } } }],
      route: [{ destination: { host: 'reviews', subset: 'v2' } }],
      fault: { abort: { httpStatus: 500 } },
    },
    {
      route: [
        { destination: { host: 'reviews', subset: 'v1' }, weight: 75 },
        { destination: { host: 'reviews', subset: 'v2' }, weight: 25 },
      ],
    },
    // After a rule without match: never emitted (route.go stops at the first catch-all).
    { route: [{ destination: { host: 'db.data.svc.cluster.local' } }] },
  ],
});

const snapOf = (configs: IstioConfig[] = [dr, split]) =>
  buildSnapshot({ services: [reviews, webSvc, dbSvc], pods: [web, rv1, rv2, db, gw], configs });

describe('buildMeshGraph: nodes', () => {
  const g = buildMeshGraph(snapOf(), DEFAULT_OPTIONS);
  const kinds = (k: string) => g.nodes.filter((n) => n.kind === k);

  it('one node per used namespace, service, workload (controller) and pod; proxies are pods with an Envoy', () => {
    expect(
      kinds('namespace')
        .map((n) => n.label)
        .sort(),
    ).toEqual(['data', 'istio-system', 'shop']);
    expect(kinds('service').map((n) => n.hostname)).toEqual([REVIEWS, 'web.shop.svc.cluster.local', 'db.data.svc.cluster.local']);
    expect(
      kinds('workload')
        .map((n) => n.label)
        .sort(),
    ).toEqual(['db', 'gw', 'reviews-v1', 'reviews-v2', 'web']);
    expect(
      kinds('proxy')
        .map((n) => n.proxyId)
        .sort(),
    ).toEqual(['gw-1.istio-system', 'reviews-v1-a.shop', 'reviews-v2-a.shop', 'web-1.shop']);
    expect(kinds('pod').map((n) => n.label)).toEqual(['db-0']);
    expect(g.counts).toMatchObject({
      namespaces: 3,
      services: 3,
      workloads: 5,
      proxies: 4,
      pods: 1,
      virtualServices: 1,
      destinationRules: 1,
    });
  });

  it('nests proxies in their workload and workloads/services in their namespace', () => {
    const p = g.nodes.find((n) => n.id === nodeId.proxy('web-1.shop'))!;
    expect(p.parent).toBe(nodeId.workload('shop', 'Deployment', 'web'));
    expect(g.nodes.find((n) => n.id === p.parent)!.parent).toBe(nodeId.namespace('shop'));
    expect(g.nodes.find((n) => n.id === nodeId.service(reviews))!.parent).toBe(nodeId.namespace('shop'));
  });

  it('badges: VirtualService and DestinationRule subsets and fault on the service, gateway on the router', () => {
    const svc = g.nodes.find((n) => n.id === nodeId.service(reviews))!;
    expect(svc.badges.map((b) => b.kind)).toEqual(['vs', 'subsets', 'fault']);
    expect(svc.badges.find((b) => b.kind === 'subsets')!.title).toBe('subsets: v1, v2');
    expect(g.nodes.find((n) => n.id === nodeId.proxy('gw-1.istio-system'))!.badges.map((b) => b.kind)).toEqual(['gateway']);
  });
});

describe('buildMeshGraph: service badges (indexed host lookups)', () => {
  // Host matching as istiod's host.Name.Matches (pilot/pkg/model/host): short names resolve in the object's own
  // namespace (ResolveShortnameToFQDN), `*.suffix` matches names ending in `.suffix`, either side may be the
  // wildcard; a bare `*` host (gateway VirtualServices) is not worth a badge on every service.
  const vs = (name: string, ns: string, hosts: string[]) => istio('VirtualService', name, ns, { hosts, http: [] });
  const ext: ServiceModel = { ...service('ext', 'shop'), hostname: '*.example.com', registry: 'External' };
  const configs: IstioConfig[] = [
    vs('a', 'shop', ['reviews']),
    vs('b', 'data', ['reviews']),
    vs('c', 'data', ['*.shop.svc.cluster.local']),
    vs('d', 'shop', ['*']),
    vs('e', 'data', ['reviews.shop.svc.cluster.local', 'reviews']),
    vs('f', 'shop', ['api.example.com']),
    dr,
    istio('DestinationRule', 'reviews-x', 'data', { host: REVIEWS, subsets: [{ name: 'x', labels: { version: 'x' } }] }),
  ];
  const g = buildMeshGraph(
    buildSnapshot({ services: [reviews, webSvc, dbSvc, ext], pods: [web, rv1, rv2, db, gw], configs }),
    DEFAULT_OPTIONS,
  );
  const badge = (s: ServiceModel, kind: string) => g.nodes.find((n) => n.id === nodeId.service(s))!.badges.find((b) => b.kind === kind);

  it('names every VirtualService whose hosts match, once each, in snapshot order', () => {
    expect(badge(reviews, 'vs')).toMatchObject({ text: 'VS 3', title: 'VirtualService: shop/a, data/c, data/e' });
    expect(badge(webSvc, 'vs')).toMatchObject({ text: 'VS 1', title: 'VirtualService: data/c' });
    expect(badge(dbSvc, 'vs')).toBeUndefined();
    // A wildcard service host (ServiceEntry `*.example.com`) is matched by the names under it.
    expect(badge(ext, 'vs')).toMatchObject({ text: 'VS 1', title: 'VirtualService: shop/f' });
  });

  it('DestinationRule subsets by resolved host, from every namespace', () => {
    expect(badge(reviews, 'subsets')).toMatchObject({ text: 'subsets 3', title: 'subsets: v1, v2, x' });
    expect(badge(webSvc, 'subsets')).toBeUndefined();
  });
});

describe('buildMeshGraph: edges', () => {
  const g = buildMeshGraph(snapOf(), DEFAULT_OPTIONS);
  const from = (id: string, kind = 'route') => g.edges.filter((e) => e.source === nodeId.proxy(id) && e.kind === kind);

  it('route edges per VS rule destination, with weights shared by weight/sum (route.go translateRoute)', () => {
    const edges = from('web-1.shop');
    expect(edges.map((e) => [e.rule, e.subset, e.percent, e.split])).toEqual([
      ['http[0]', 'v2', 100, false],
      ['http[1]', 'v1', 75, true],
      ['http[1]', 'v2', 25, true],
    ]);
    expect(edges.every((e) => e.target === nodeId.service(reviews) && e.virtualService === 'shop/reviews')).toBe(true);
    expect(edges[0]!.match).toBe('with end-user=jason');
    expect(edges[0]!.fault).toBe(true);
    expect(edges[1]!.label).toBe('reviews http[1] → v1 75%');
  });

  it('rules after a catch-all rule are never emitted (route.go BuildHTTPRoutesForVirtualService stops)', () => {
    expect(g.edges.some((e) => e.rule === 'http[2]')).toBe(false);
  });

  it('default edges to services no VirtualService claims (sidecars only; gateways route only via bound VS)', () => {
    expect(
      from('web-1.shop', 'default')
        .map((e) => e.target)
        .sort(),
    ).toEqual([nodeId.service(dbSvc), nodeId.service(webSvc)].sort());
    expect(from('gw-1.istio-system', 'default')).toEqual([]);
    expect(from('gw-1.istio-system')).toEqual([]); // no Gateway, no VS bound to it
  });

  it('endpoint edges from a service to the pods behind it', () => {
    const eps = g.edges.filter((e) => e.kind === 'endpoint' && e.source === nodeId.service(reviews)).map((e) => e.target);
    expect(eps.sort()).toEqual([nodeId.proxy('reviews-v1-a.shop'), nodeId.proxy('reviews-v2-a.shop')]);
    expect(g.edges.filter((e) => e.kind === 'endpoint' && e.source === nodeId.service(dbSvc)).map((e) => e.target)).toEqual([
      nodeId.pod('data', 'db-0'),
    ]);
  });

  it('sourceLabels: a match for other workloads does not apply to this proxy (route.go sourceMatchHTTP)', () => {
    const vs = istio('VirtualService', 'reviews', 'shop', {
      hosts: ['reviews'],
      http: [
        { match: [{ sourceLabels: { app: 'other' } }], route: [{ destination: { host: 'reviews', subset: 'v2' } }] },
        { route: [{ destination: { host: 'reviews', subset: 'v1' } }] },
      ],
    });
    const g2 = buildMeshGraph(snapOf([dr, vs]), DEFAULT_OPTIONS);
    expect(g2.edges.filter((e) => e.source === nodeId.proxy('web-1.shop') && e.kind === 'route').map((e) => e.subset)).toEqual(['v1']);
  });

  it('sidecars: for one host only the first imported VirtualService applies (BuildSidecarVirtualHostWrapper)', () => {
    const older = istio(
      'VirtualService',
      'a-first',
      'shop',
      { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews', subset: 'v1' } }] }] },
      { created: '2024-01-01T00:00:00Z' },
    );
    const newer = istio(
      'VirtualService',
      'b-second',
      'shop',
      { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews', subset: 'v2' } }] }] },
      { created: '2024-02-01T00:00:00Z' },
    );
    const g2 = buildMeshGraph(snapOf([dr, newer, older]), DEFAULT_OPTIONS);
    expect(g2.edges.filter((e) => e.source === nodeId.proxy('web-1.shop') && e.kind === 'route').map((e) => e.virtualService)).toEqual([
      'shop/a-first',
    ]);
  });

  it('gateways: VS bound to a Gateway selecting the router give router → service edges; mesh sidecars ignore them', () => {
    const gateway = istio('Gateway', 'public', 'istio-system', {
      selector: { istio: 'ingressgateway' },
      servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*'] }],
    });
    const vs = istio('VirtualService', 'front', 'shop', {
      hosts: ['*'],
      gateways: ['istio-system/public'],
      http: [{ match: [{ uri: { prefix: '/web' } }], route: [{ destination: { host: 'web' } }] }],
    });
    const g2 = buildMeshGraph(snapOf([dr, split, gateway, vs]), DEFAULT_OPTIONS);
    const gwEdges = g2.edges.filter((e) => e.source === nodeId.proxy('gw-1.istio-system'));
    expect(gwEdges.map((e) => [e.kind, e.target, e.match, e.percent])).toEqual([['route', nodeId.service(webSvc), '/web*', 100]]);
    expect(g2.edges.some((e) => e.source === nodeId.proxy('web-1.shop') && e.virtualService === 'shop/front')).toBe(false);
    expect(g2.nodes.find((n) => n.id === nodeId.proxy('gw-1.istio-system'))!.badges[0]!.title).toBe('Gateway: istio-system/public');
    // A bare `*` host claims every service; it does not earn each service a VirtualService badge.
    expect(g2.nodes.find((n) => n.id === nodeId.service(webSvc))!.badges).toEqual([]);
  });

  it('mirror edges for mirrored traffic', () => {
    const vs = istio('VirtualService', 'reviews', 'shop', {
      hosts: ['reviews'],
      http: [{ route: [{ destination: { host: 'reviews', subset: 'v1' } }], mirror: { host: 'db.data.svc.cluster.local' } }],
    });
    const g2 = buildMeshGraph(snapOf([dr, vs]), DEFAULT_OPTIONS);
    const m = g2.edges.filter((e) => e.source === nodeId.proxy('web-1.shop') && e.kind === 'mirror');
    expect(m.map((e) => e.target)).toEqual([nodeId.service(dbSvc)]);
  });

  it('an empty snapshot gives an empty graph, not an error', () => {
    const g0 = buildMeshGraph(buildSnapshot({}), DEFAULT_OPTIONS);
    expect(g0.nodes).toEqual([]);
    expect(g0.edges).toEqual([]);
  });
});

describe('route helpers', () => {
  it('shares: a single destination takes 100% whatever its weight; several share weight/sum', () => {
    expect(shares([undefined])).toEqual([100]);
    expect(shares([0])).toEqual([100]);
    expect(shares([80, 20])).toEqual([80, 20]);
    expect(shares([1, 1, 1])).toEqual([33.3, 33.3, 33.3]);
  });

  it('describeHttpMatch reads like a request', () => {
    expect(describeHttpMatch({ method: { exact: 'GET' }, uri: { prefix: '/api/' }, headers: { 'end-user': { exact: 'jason' } } })).toBe(
      'GET /api/* with end-user=jason',
    );
    expect(describeHttpMatch(undefined)).toBe('any');
    // Ingress / Gateway API semantics: a prefix is a path-segment prefix (route.go TranslateRouteMatch → path_separated_prefix).
    expect(describeHttpMatch({ uri: { prefix: '/api/' } }, true)).toBe('/api, /api/*');
    expect(describeHttpMatch({ uri: { prefix: '/' } }, true)).toBe('/*');
  });
});
