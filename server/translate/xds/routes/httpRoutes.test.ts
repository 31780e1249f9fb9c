// Expected values follow istio pilot/pkg/networking/core/route/route.go (function named per test)
// and route/retry/retry.go; see istio-translation.md §5.
import { describe, expect, it } from 'vitest';
import type { HTTPRoute } from '../../../model/istio';
import { EXT } from '../../../envoy/typeUrls';
import { buildHttpRoutesForVirtualService } from './httpRoutes';
import { build, ctx, META, names, REVIEWS, to } from './httpRoutes.testing';
import { bookinfoVirtualService, DEFAULT_RETRY, encodeRoute, virtualService } from './testing';

describe('BuildHTTPRoutesForVirtualService on Bookinfo fixtures', () => {
  it('reviews 80/20: no match → prefix "/" only, weighted clusters 80/20, timeout 0s, default retry (applyHTTPRouteDestination)', () => {
    const { routes, errors } = buildHttpRoutesForVirtualService(bookinfoVirtualService('virtual-service-reviews-80-20.yaml'), ctx());
    expect(errors).toEqual([]);
    expect(routes).toEqual([
      {
        match: { prefix: '/' },
        metadata: META('reviews'),
        route: {
          weightedClusters: {
            clusters: [
              { name: `outbound|9080|v1|${REVIEWS}`, weight: 80 },
              { name: `outbound|9080|v2|${REVIEWS}`, weight: 20 },
            ],
          },
          timeout: '0s',
          maxGrpcTimeout: '0s',
          retryPolicy: DEFAULT_RETRY,
        },
        // GetRouteOperation: several clusters → "<vs name>:<listener port><path>"
        decorator: { operation: 'reviews:9080/*' },
      },
    ]);
  });

  it('jason: header exact match → v2, then the match-less route → v3 (TranslateRouteMatch, single destination → cluster)', () => {
    const { routes } = buildHttpRoutesForVirtualService(bookinfoVirtualService('virtual-service-reviews-jason-v2-v3.yaml'), ctx());
    expect(routes).toHaveLength(2);
    expect(routes[0]).toEqual({
      match: { prefix: '/', caseSensitive: true, headers: [{ name: 'end-user', stringMatch: { exact: 'jason' } }] },
      metadata: META('reviews'),
      route: { cluster: `outbound|9080|v2|${REVIEWS}`, timeout: '0s', maxGrpcTimeout: '0s', retryPolicy: DEFAULT_RETRY },
      // single valid cluster → "<host>:<port><path>"
      decorator: { operation: `${REVIEWS}:9080/*` },
    });
    expect(routes[1]?.match).toEqual({ prefix: '/' });
    expect(routes[1]?.route?.cluster).toBe(`outbound|9080|v3|${REVIEWS}`);
  });

  it('ratings delay and abort faults → typed_per_filter_config envoy.filters.http.fault, 100% = 1000000/MILLION (TranslateFault)', () => {
    const delay = buildHttpRoutesForVirtualService(bookinfoVirtualService('virtual-service-ratings-test-delay.yaml'), ctx()).routes;
    expect(delay[0]?.typedPerFilterConfig).toEqual({
      'envoy.filters.http.fault': {
        '@type': EXT.fault,
        delay: { fixedDelay: '7s', percentage: { numerator: 1000000, denominator: 'MILLION' } },
      },
    });
    expect(delay[1]?.typedPerFilterConfig).toBeUndefined();
    const abort = buildHttpRoutesForVirtualService(bookinfoVirtualService('virtual-service-ratings-test-abort.yaml'), ctx()).routes;
    expect(abort[0]?.typedPerFilterConfig?.['envoy.filters.http.fault']).toEqual({
      '@type': EXT.fault,
      abort: { httpStatus: 500, percentage: { numerator: 1000000, denominator: 'MILLION' } },
    });
    encodeRoute({ name: 't', virtualHosts: [{ name: 'v', domains: ['*'], routes: [...delay, ...abort] }] });
  });
});

describe('catch-all rule (BuildHTTPRoutesForVirtualService + IsCatchAllRoute)', () => {
  it('a match-less http route is emitted and stops all later http routes', () => {
    const { routes } = build([
      { name: 'a', route: [to(REVIEWS, 'v1')] },
      { name: 'b', route: [to(REVIEWS, 'v2')] },
    ]);
    expect(names(routes)).toEqual(['a']);
  });
  it('a translated prefix "/" match stops later matches and later http routes', () => {
    const { routes } = build([
      {
        name: 'a',
        match: [
          { name: 'all', uri: { prefix: '/' } },
          { name: 'x', uri: { prefix: '/x' } },
        ],
        route: [to(REVIEWS)],
      },
      { name: 'b', route: [to(REVIEWS)] },
    ]);
    expect(names(routes)).toEqual(['a.all']);
  });
  it('regex ".*" without headers is catch-all; with a header matcher it is not', () => {
    expect(
      names(
        build([
          { name: 'a', match: [{ uri: { regex: '.*' } }], route: [to(REVIEWS)] },
          { name: 'b', route: [to(REVIEWS)] },
        ]).routes,
      ),
    ).toEqual(['a']);
    expect(
      names(
        build([
          { name: 'a', match: [{ uri: { regex: '.*' }, headers: { x: { exact: '1' } } }], route: [to(REVIEWS)] },
          { name: 'b', route: [to(REVIEWS)] },
        ]).routes,
      ),
    ).toEqual(['a', 'b']);
  });
  it('a match skipped for this port is not catch-all: later matches and routes are emitted', () => {
    const { routes } = build([
      {
        name: 'a',
        match: [
          { name: 'p8080', port: 8080 },
          { name: 'api', uri: { prefix: '/api' } },
        ],
        route: [to(REVIEWS)],
      },
      { name: 'b', route: [to(REVIEWS)] },
    ]);
    expect(names(routes)).toEqual(['a.api', 'b']);
  });
  it('several matches of one http route → one route each, named <route>.<match>', () => {
    const { routes } = build([
      { name: 'r', match: [{ name: 'one', uri: { exact: '/1' } }, { uri: { prefix: '/2' } }], route: [to(REVIEWS)] },
    ]);
    expect(names(routes)).toEqual(['r.one', 'r']);
    expect(
      build([{ name: 's', match: [{ statPrefix: 'my-stats', uri: { prefix: '/s' } }], route: [to(REVIEWS)] }]).routes[0]?.statPrefix,
    ).toBe('my-stats');
    expect(routes.map((r) => r.match)).toEqual([
      { path: '/1', caseSensitive: true },
      { prefix: '/2', caseSensitive: true },
    ]);
  });
});

describe('per-proxy match filtering (translateRoute + sourceMatchHTTP)', () => {
  const http: HTTPRoute[] = [{ name: 'm', match: [{ port: 9080, uri: { prefix: '/p' } }], route: [to(REVIEWS)] }];
  it('match.port must equal the listener port', () => {
    expect(build(http).routes).toHaveLength(1);
    expect(build(http, { listenerPort: 8080 }).routes).toHaveLength(0);
  });
  it('sourceLabels must be a subset of the proxy labels', () => {
    const h: HTTPRoute[] = [{ name: 's', match: [{ sourceLabels: { app: 'productpage' } }], route: [to(REVIEWS)] }];
    expect(build(h).routes).toHaveLength(1);
    expect(build(h, { proxyLabels: { app: 'reviews' } }).routes).toHaveLength(0);
  });
  it('sourceNamespace must equal the proxy namespace', () => {
    const h: HTTPRoute[] = [{ name: 's', match: [{ sourceNamespace: 'default' }], route: [to(REVIEWS)] }];
    expect(build(h).routes).toHaveLength(1);
    expect(build(h, { proxyNamespace: 'other' }).routes).toHaveLength(0);
  });
  it('match gateways: one must be a current gateway name (short names resolve to <vs ns>/<name>)', () => {
    const h: HTTPRoute[] = [{ name: 'g', match: [{ gateways: ['bookinfo-gateway'] }], route: [to(REVIEWS)] }];
    expect(build(h).routes).toHaveLength(0);
    expect(build(h, { gatewayNames: new Set(['default/bookinfo-gateway']), isGateway: true }).routes).toHaveLength(1);
    expect(build([{ name: 'g', match: [{ gateways: ['mesh'] }], route: [to(REVIEWS)] }]).routes).toHaveLength(1);
  });
});

describe('TranslateRouteMatch', () => {
  it('uri exact/prefix/regex with case_sensitive = !ignoreUriCase', () => {
    const r = build([
      {
        name: 'x',
        match: [{ uri: { exact: '/e' }, ignoreUriCase: true }, { uri: { regex: '/r[0-9]+' } }, { uri: { prefix: '/p' } }],
        route: [to(REVIEWS)],
      },
    ]).routes;
    expect(r.map((x) => x.match)).toEqual([
      { path: '/e', caseSensitive: false },
      { safeRegex: { regex: '/r[0-9]+' }, caseSensitive: true },
      { prefix: '/p', caseSensitive: true },
    ]);
  });
  it('headers sorted by name, regex "*" → present_match, withoutHeaders inverted, then :method/:authority/:scheme, then query', () => {
    const [r] = build([
      {
        name: 'h',
        match: [
          {
            headers: { zeta: { prefix: 'z' }, alpha: { regex: '*' }, mid: { regex: 'a.+' } },
            withoutHeaders: { beta: { exact: 'no' }, gamma: {} },
            method: { exact: 'GET' },
            authority: { prefix: 'api.' },
            scheme: { exact: 'https' },
            queryParams: { q: { exact: '1' }, flag: {} },
          },
        ],
        route: [to(REVIEWS)],
      },
    ]).routes;
    expect(r?.match).toEqual({
      prefix: '/',
      caseSensitive: true,
      headers: [
        { name: 'alpha', presentMatch: true },
        { name: 'beta', stringMatch: { exact: 'no' }, invertMatch: true, treatMissingHeaderAsEmpty: true },
        { name: 'gamma', presentMatch: true, invertMatch: true },
        { name: 'mid', stringMatch: { safeRegex: { regex: 'a.+' } } },
        { name: 'zeta', stringMatch: { prefix: 'z' } },
        { name: ':method', stringMatch: { exact: 'GET' } },
        { name: ':authority', stringMatch: { prefix: 'api.' } },
        { name: ':scheme', stringMatch: { exact: 'https' } },
      ],
      queryParameters: [
        { name: 'flag', presentMatch: true },
        { name: 'q', stringMatch: { exact: '1' } },
      ],
    });
  });
  it('@request.auth.claims headers become jwt_authn dynamic metadata matchers (translateMetadataMatch)', () => {
    const [r] = build([
      { name: 'j', match: [{ headers: { '@request.auth.claims.group': { exact: 'admin' } } }], route: [to(REVIEWS)] },
    ]).routes;
    expect(r?.match?.headers).toBeUndefined();
    expect(r?.match?.dynamicMetadata?.[0]).toMatchObject({
      filter: 'envoy.filters.http.jwt_authn',
      path: [{ key: 'payload' }, { key: 'group' }],
    });
  });
});

describe('bad input never throws', () => {
  it('junk http entries, missing destinations and non-array fields produce errors, not exceptions', () => {
    const vs = virtualService('junk', 'default', {
      hosts: [REVIEWS],
      http: [
        null as unknown as HTTPRoute,
        { name: 'x', match: [{ uri: { prefix: '/x' } }] },
        { match: null as unknown as [], route: [to(REVIEWS)] },
      ],
    });
    const out = buildHttpRoutesForVirtualService(vs, ctx());
    expect(out.routes).toHaveLength(1);
    expect(out.errors.map((e) => e.path)).toEqual(['spec.http[1].route']);
    expect(buildHttpRoutesForVirtualService(virtualService('empty', 'default', {} as never), ctx()).routes).toEqual([]);
  });
  it('a match-less route that cannot be translated still ends the route list (catchall is set for any match-less route)', () => {
    const vs = virtualService('junk', 'default', { hosts: [REVIEWS], http: [{ name: 'x' }, { name: 'y', route: [to(REVIEWS)] }] });
    const out = buildHttpRoutesForVirtualService(vs, ctx());
    expect(out.routes).toEqual([]);
    expect(out.errors.map((e) => e.path)).toEqual(['spec.http[0].route']);
  });
});
