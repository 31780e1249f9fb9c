// Expected values follow istio pilot/pkg/networking/core/httproute.go (BuildSidecarOutboundVirtualHosts,
// generateVirtualHostDomains, dedupeDomains, buildCatchAllVirtualHost, getVirtualHostsForSniffedServicePort)
// and route/route.go (BuildSidecarVirtualHostWrapper, BuildDefaultHTTPOutboundRoute); istio-translation.md §4.
import { describe, expect, it } from 'vitest';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { IstioConfig } from '../../../model/mesh';
import { buildInboundRouteConfig } from './inbound';
import { buildSidecarRouteConfigs, buildSniffedRouteConfig } from './sidecarRouteConfigs';
import {
  bookinfoVirtualService,
  canonicalDiff,
  DEFAULT_RETRY,
  destinationRule,
  encodeRoute,
  proxy,
  service,
  view,
  virtualService,
} from './testing';

const fq = (n: string, ns = 'default') => `${n}.${ns}.svc.cluster.local`;
const bookinfo = [
  service('details', 'default', [[9080]], { address: '10.96.0.1' }),
  service('productpage', 'default', [[9080]], { address: '10.96.0.2' }),
  service('ratings', 'default', [[9080]], { address: '10.96.0.3' }),
  service('reviews', 'default', [[9080]], { address: '10.96.0.4' }),
];
const ALLOW_ANY = {
  name: 'allow_any',
  domains: ['*'],
  routes: [{ name: 'allow_any', match: { prefix: '/' }, route: { cluster: 'PassthroughCluster', timeout: '0s', maxGrpcTimeout: '0s' } }],
  includeRequestAttemptCount: true,
};

function configs(v: ReturnType<typeof view>, ports: number[]) {
  const out = buildSidecarRouteConfigs(v, ports);
  for (const rc of out.routes) encodeRoute(rc); // must fit Envoy's RouteConfiguration schema
  return out;
}
const vhost = (rc: RouteConfigurationJson | undefined, name: string) => rc?.virtualHosts?.find((v) => v.name === name);

describe('sidecar route config <port> on Bookinfo', () => {
  it('reviews 80/20 from a default-namespace proxy: vhost names, domains, sorted order, allow_any last', () => {
    const v = view({ services: bookinfo, virtualServices: [bookinfoVirtualService('virtual-service-reviews-80-20.yaml')] });
    const { routes, errors } = configs(v, [9080]);
    expect(errors).toEqual([]);
    const rc = routes[0];
    expect(rc).toMatchObject({
      name: '9080',
      validateClusters: false,
      maxDirectResponseBodySizeBytes: 1048576,
      ignorePortInHostMatching: true,
    });
    expect(rc?.virtualHosts?.map((vh) => vh.name)).toEqual([
      `${fq('details')}:9080`,
      `${fq('productpage')}:9080`,
      `${fq('ratings')}:9080`,
      `${fq('reviews')}:9080`,
      'allow_any',
    ]);
    const reviews = vhost(rc, `${fq('reviews')}:9080`);
    // hostname, absolute FQDN, same-namespace short forms (name, name.ns.svc, name.ns), then the VIP
    expect(reviews?.domains).toEqual([
      fq('reviews'),
      `${fq('reviews')}.`,
      'reviews',
      'reviews.default.svc',
      'reviews.default',
      '10.96.0.4',
    ]);
    expect(reviews?.includeRequestAttemptCount).toBe(true);
    expect(reviews?.routes?.[0]?.route?.weightedClusters?.clusters).toEqual([
      { name: `outbound|9080|v1|${fq('reviews')}`, weight: 80 },
      { name: `outbound|9080|v2|${fq('reviews')}`, weight: 20 },
    ]);
    expect(rc?.virtualHosts?.at(-1)).toEqual(ALLOW_ANY);
    // the typed JSON is canonical: protobuf's own printing of it only changes key case
    const { encoded, typed } = canonicalDiff(rc as RouteConfigurationJson);
    expect(encoded).toEqual(typed);
  });

  it('services without VirtualService get the default route (BuildDefaultHTTPOutboundRoute)', () => {
    const rc = configs(view({ services: bookinfo }), [9080]).routes[0];
    expect(vhost(rc, `${fq('ratings')}:9080`)?.routes).toEqual([
      {
        name: 'default',
        match: { prefix: '/' },
        route: { cluster: `outbound|9080||${fq('ratings')}`, timeout: '0s', maxGrpcTimeout: '0s', retryPolicy: DEFAULT_RETRY },
        decorator: { operation: `${fq('ratings')}:9080/*` },
      },
    ]);
  });

  it('jason route: header route to v2, catch-all to v3, nothing after the catch-all', () => {
    const vs = bookinfoVirtualService('virtual-service-reviews-jason-v2-v3.yaml');
    vs.spec.http?.push({ name: 'never', route: [{ destination: { host: fq('reviews'), subset: 'v1' } }] });
    const rc = configs(view({ services: bookinfo, virtualServices: [vs] }), [9080]).routes[0];
    const routes = vhost(rc, `${fq('reviews')}:9080`)?.routes ?? [];
    expect(routes.map((r) => r.route?.cluster)).toEqual([`outbound|9080|v2|${fq('reviews')}`, `outbound|9080|v3|${fq('reviews')}`]);
  });

  it('two VirtualServices for one host: the first imported owns the vhost, no merging', () => {
    const older = virtualService(
      'reviews-old',
      'default',
      { hosts: [fq('reviews')], http: [{ route: [{ destination: { host: fq('reviews'), subset: 'v1' } }] }] },
      '2024-01-01T00:00:00Z',
    );
    const newer = virtualService(
      'reviews-new',
      'default',
      {
        hosts: [fq('reviews')],
        http: [{ match: [{ uri: { prefix: '/new' } }], route: [{ destination: { host: fq('reviews'), subset: 'v3' } }] }],
      },
      '2024-02-01T00:00:00Z',
    );
    const rc = configs(view({ services: bookinfo, virtualServices: [older, newer] }), [9080]).routes[0];
    const routes = vhost(rc, `${fq('reviews')}:9080`)?.routes ?? [];
    expect(routes).toHaveLength(1);
    expect(routes[0]?.route?.cluster).toBe(`outbound|9080|v1|${fq('reviews')}`);
    expect(routes[0]?.metadata).toEqual({
      filterMetadata: { istio: { config: '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews-old' } },
    });
  });

  it('REGISTRY_ONLY closes with block_all (direct_response 502); a Sidecar egressProxy replaces PassthroughCluster', () => {
    const blocked = configs(view({ services: bookinfo, outboundTrafficPolicy: 'REGISTRY_ONLY' }), [9080]).routes[0];
    expect(blocked?.virtualHosts?.at(-1)).toEqual({
      name: 'block_all',
      domains: ['*'],
      routes: [{ name: 'block_all', match: { prefix: '/' }, directResponse: { status: 502 } }],
      includeRequestAttemptCount: true,
    });
    const sidecar: IstioConfig<'Sidecar'> = {
      kind: 'Sidecar',
      apiVersion: 'networking.istio.io/v1',
      meta: { name: 'default', namespace: 'default', labels: {}, annotations: {}, creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: {
        outboundTrafficPolicy: { mode: 'ALLOW_ANY', egressProxy: { host: 'egress.istio-system.svc.cluster.local', port: { number: 80 } } },
      },
      origin: { source: 'file' },
    };
    const egress = configs(view({ services: bookinfo, sidecar }), [9080]).routes[0];
    expect(egress?.virtualHosts?.at(-1)?.routes?.[0]?.route?.cluster).toBe('outbound|80||egress.istio-system.svc.cluster.local');
  });
});

describe('domains (generateVirtualHostDomains, dedupeDomains)', () => {
  it('a service in another namespace gets <name>.<ns> and <name>.<ns>.svc, not the bare name', () => {
    const other = service('ratings', 'other', [[9080]], { address: '10.96.9.9' });
    const rc = configs(view({ services: [other] }), [9080]).routes[0];
    expect(vhost(rc, `${fq('ratings', 'other')}:9080`)?.domains).toEqual([
      fq('ratings', 'other'),
      `${fq('ratings', 'other')}.`,
      'ratings.other',
      'ratings.other.svc',
      '10.96.9.9',
    ]);
  });
  it('headless Kubernetes services repeat every domain with "*." and have no address; external hosts get no short forms', () => {
    const headless = service('db', 'default', [[8080]], { address: '0.0.0.0', addresses: ['0.0.0.0'], resolution: 'Passthrough' });
    const ext = service('api', 'default', [[8080]], {
      hostname: 'api.example.com',
      registry: 'External',
      address: '240.0.0.1',
      addresses: ['240.0.0.1'],
    });
    const rc = configs(view({ services: [headless, ext] }), [8080]).routes[0];
    const base = [fq('db'), `${fq('db')}.`, 'db', 'db.default.svc', 'db.default'];
    expect(vhost(rc, `${fq('db')}:8080`)?.domains).toEqual([...base, ...base.map((d) => `*.${d}`)]);
    expect(vhost(rc, 'api.example.com:8080')?.domains).toEqual(['api.example.com', 'api.example.com.', '240.0.0.1']);
  });
  it('an expanded short form that is another service FQDN is dropped; used domains are not repeated', () => {
    const k8s = service('reviews', 'default', [[9080]], { address: '10.96.0.4' });
    const se = service('se', 'default', [[9080]], { hostname: 'reviews.default', registry: 'External', address: '0.0.0.0', addresses: [] });
    const rc = configs(view({ services: [k8s, se] }), [9080]).routes[0];
    expect(vhost(rc, `${fq('reviews')}:9080`)?.domains).toEqual([
      fq('reviews'),
      `${fq('reviews')}.`,
      'reviews',
      'reviews.default.svc',
      '10.96.0.4',
    ]);
    expect(vhost(rc, 'reviews.default:9080')?.domains).toEqual(['reviews.default', 'reviews.default.']);
  });
});

describe('VirtualService selection and host ownership', () => {
  it('exact host beats an older wildcard host; the wildcard claims the other services (computeWildcardHostVirtualServiceIndex)', () => {
    const wild = virtualService(
      'wild',
      'default',
      { hosts: ['*.default.svc.cluster.local'], http: [{ route: [{ destination: { host: fq('details'), subset: 'w' } }] }] },
      '2023-01-01T00:00:00Z',
    );
    const exact = virtualService(
      'exact',
      'default',
      { hosts: [fq('reviews')], http: [{ route: [{ destination: { host: fq('reviews'), subset: 'e' } }] }] },
      '2024-01-01T00:00:00Z',
    );
    const rc = configs(view({ services: bookinfo, virtualServices: [wild, exact] }), [9080]).routes[0];
    expect(vhost(rc, `${fq('reviews')}:9080`)?.routes?.[0]?.route?.cluster).toBe(`outbound|9080|e|${fq('reviews')}`);
    expect(vhost(rc, `${fq('ratings')}:9080`)?.routes?.[0]?.route?.cluster).toBe(`outbound|9080|w|${fq('details')}`);
    expect(rc?.virtualHosts?.some((vh) => vh.name?.startsWith('*'))).toBe(false);
  });
  it('non-registry hosts get a vhost only on port 80 (with the destination falling back to the listener port)', () => {
    const vs = virtualService('ext', 'default', { hosts: ['foo.bar.com'], http: [{ route: [{ destination: { host: fq('reviews') } }] }] });
    const { routes } = configs(view({ services: bookinfo, virtualServices: [vs] }), [80, 9080]);
    const r80 = routes.find((r) => r.name === '80');
    expect(r80?.virtualHosts?.map((vh) => vh.name)).toEqual(['foo.bar.com:80', 'allow_any']);
    expect(vhost(r80, 'foo.bar.com:80')?.domains).toEqual(['foo.bar.com']);
    expect(vhost(r80, 'foo.bar.com:80')?.routes?.[0]?.route?.cluster).toBe(`outbound|80||${fq('reviews')}`);
    expect(
      vhost(
        routes.find((r) => r.name === '9080'),
        'foo.bar.com:9080',
      ),
    ).toBeUndefined();
  });
  it('port-filtered matches: a VirtualService yielding no route on a port leaves the default route there', () => {
    const multi = service('multi', 'default', [[8080], [9080]]);
    const vs = virtualService('multi', 'default', {
      hosts: [fq('multi')],
      http: [{ match: [{ port: 8080 }], route: [{ destination: { host: fq('multi'), subset: 'v2' } }] }],
    });
    const { routes } = configs(view({ services: [multi], virtualServices: [vs] }), [8080, 9080]);
    expect(vhost(routes[0], `${fq('multi')}:8080`)?.routes?.[0]?.route?.cluster).toBe(`outbound|8080|v2|${fq('multi')}`);
    expect(vhost(routes[1], `${fq('multi')}:9080`)?.routes?.[0]).toMatchObject({
      name: 'default',
      route: { cluster: `outbound|9080||${fq('multi')}` },
    });
  });
  it('sourceLabels restrict a route to matching proxies (where it matches, its prefix "/" route is catch-all and ends the list)', () => {
    const vs = virtualService('r', 'default', {
      hosts: [fq('reviews')],
      http: [
        { match: [{ sourceLabels: { app: 'productpage' } }], route: [{ destination: { host: fq('reviews'), subset: 'v2' } }] },
        { route: [{ destination: { host: fq('reviews'), subset: 'v1' } }] },
      ],
    });
    const fromPP = configs(view({ services: bookinfo, virtualServices: [vs] }), [9080]).routes[0];
    const fromRatings = configs(
      view({ proxy: proxy('ratings-v1', 'default', { app: 'ratings' }), services: bookinfo, virtualServices: [vs] }),
      [9080],
    ).routes[0];
    expect(vhost(fromPP, `${fq('reviews')}:9080`)?.routes?.map((r) => r.route?.cluster)).toEqual([`outbound|9080|v2|${fq('reviews')}`]);
    expect(vhost(fromRatings, `${fq('reviews')}:9080`)?.routes?.map((r) => r.route?.cluster)).toEqual([
      `outbound|9080|v1|${fq('reviews')}`,
    ]);
  });
  it('a DestinationRule consistent hash adds hash_policy to the default route (hashForService)', () => {
    const dr = destinationRule('ratings', 'default', {
      host: fq('ratings'),
      trafficPolicy: { loadBalancer: { consistentHash: { httpCookie: { name: 'u', ttl: '10s' } } } },
    });
    const rc = configs(view({ services: bookinfo, destinationRules: [dr] }), [9080]).routes[0];
    expect(vhost(rc, `${fq('ratings')}:9080`)?.routes?.[0]?.route?.hashPolicy).toEqual([{ cookie: { name: 'u', ttl: '10s' } }]);
  });
  it('VirtualService errors are reported located, once', () => {
    const vs = virtualService('bad', 'default', {
      hosts: [fq('reviews')],
      http: [{ timeout: 'never', route: [{ destination: { host: fq('reviews') } }] }],
    });
    const { errors } = configs(view({ services: bookinfo, virtualServices: [vs] }), [9080, 9080]);
    expect(errors).toEqual([
      {
        severity: 'error',
        message: 'invalid duration "never"',
        object: 'VirtualService default/bad',
        path: 'spec.http[0].timeout',
        file: 'bad.yaml',
        doc: 0,
      },
    ]);
  });
});

describe('sniffed and inbound route configs', () => {
  it('<fqdn>:<port> holds only the service vhost with domains "*" and no catch-all (getVirtualHostsForSniffedServicePort)', () => {
    const legacy = service('legacy', 'default', [[7070, 'Unsupported']], { address: '10.96.7.7' });
    const other = service('other', 'default', [[7070, 'Unsupported']], { address: '10.96.7.8' });
    const { route } = buildSniffedRouteConfig(view({ services: [legacy, other] }), legacy, 7070);
    encodeRoute(route);
    expect(route.name).toBe(`${fq('legacy')}:7070`);
    expect(route.virtualHosts?.map((vh) => [vh.name, vh.domains])).toEqual([[`${fq('legacy')}:7070`, ['*']]]);
  });
  it('inbound: inbound|<targetPort>|| with vhost inbound|http|<servicePort>, retries reset-before-request except gRPC', () => {
    const reviews = service('reviews', 'default', [[9080]]);
    const rc = buildInboundRouteConfig({ service: reviews, port: { name: 'http', port: 9080, protocol: 'HTTP' }, targetPort: 9081 });
    encodeRoute(rc);
    expect(rc).toEqual({
      name: 'inbound|9081||',
      virtualHosts: [
        {
          name: 'inbound|http|9080',
          domains: ['*'],
          routes: [
            {
              name: 'default',
              match: { prefix: '/' },
              route: {
                cluster: 'inbound|9081||',
                timeout: '0s',
                maxStreamDuration: { maxStreamDuration: '0s', grpcTimeoutHeaderMax: '0s' },
                retryPolicy: { retryOn: 'reset-before-request', numRetries: 2 },
              },
              decorator: { operation: `${fq('reviews')}:9080/*` },
            },
          ],
        },
      ],
      validateClusters: false,
    });
    const grpc = buildInboundRouteConfig({ service: reviews, port: { name: 'grpc', port: 9090, protocol: 'GRPC' }, targetPort: 9090 });
    expect(grpc.virtualHosts?.[0]?.routes?.[0]?.route?.retryPolicy).toBeUndefined();
  });
});
