// Expected values follow istio pilot/pkg/networking/core/route/route.go (function named per test)
// and route/retry/retry.go; see istio-translation.md §5.
import { describe, expect, it } from 'vitest';
import type { RouteJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRoute } from '../../../model/istio';
import { EXT } from '../../../envoy/typeUrls';
import type { RouteContext } from './context';
import { buildHttpRoutesForVirtualService } from './httpRoutes';
import { DEFAULT_RETRY_ON, PREVIOUS_HOSTS_TYPE } from './retry';
import { bookinfoVirtualService, canonicalDiff, encodeRoute, service, virtualService } from './testing';

const REVIEWS = 'reviews.default.svc.cluster.local';
const RATINGS = 'ratings.default.svc.cluster.local';
const services = [service('reviews', 'default', [[9080]]), service('ratings', 'default', [[9080]]), service('multi', 'default', [[8080], [9080]])];

const ctx = (over: Partial<RouteContext> = {}): RouteContext => ({
  listenerPort: 9080,
  gatewayNames: new Set(['mesh']),
  proxyLabels: { app: 'productpage', version: 'v1' },
  proxyNamespace: 'default',
  serviceLookup: (h) => services.find((s) => s.hostname === h),
  isGateway: false,
  ...over,
});

const DEFAULT_RETRY = {
  retryOn: DEFAULT_RETRY_ON,
  numRetries: 2,
  retryHostPredicate: [{ name: 'envoy.retry_host_predicates.previous_hosts', typedConfig: { '@type': PREVIOUS_HOSTS_TYPE } }],
  hostSelectionRetryMaxAttempts: '5',
  retriableStatusCodes: [503],
};
const META = (name: string, ns = 'default') => ({ filterMetadata: { istio: { config: `/apis/networking.istio.io/v1/namespaces/${ns}/virtual-service/${name}` } } });

function build(http: HTTPRoute[], c: Partial<RouteContext> = {}, name = 'vs') {
  const out = buildHttpRoutesForVirtualService(virtualService(name, 'default', { hosts: [REVIEWS], http }), ctx(c));
  // Every produced route must be accepted by the Envoy schema, and already be in canonical form.
  const rc = { name: 't', virtualHosts: [{ name: 'v', domains: ['*'], routes: out.routes }] };
  if (out.routes.length === 0) encodeRoute(rc);
  else {
    const { encoded, typed } = canonicalDiff(rc);
    expect(encoded).toEqual(typed);
  }
  return out;
}
const to = (host: string, subset?: string) => ({ destination: subset ? { host, subset } : { host } });
const names = (rs: RouteJson[]) => rs.map((r) => r.name);

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
      'envoy.filters.http.fault': { '@type': EXT.fault, delay: { fixedDelay: '7s', percentage: { numerator: 1000000, denominator: 'MILLION' } } },
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
    const { routes } = build([{ name: 'a', route: [to(REVIEWS, 'v1')] }, { name: 'b', route: [to(REVIEWS, 'v2')] }]);
    expect(names(routes)).toEqual(['a']);
  });
  it('a translated prefix "/" match stops later matches and later http routes', () => {
    const { routes } = build([
      { name: 'a', match: [{ name: 'all', uri: { prefix: '/' } }, { name: 'x', uri: { prefix: '/x' } }], route: [to(REVIEWS)] },
      { name: 'b', route: [to(REVIEWS)] },
    ]);
    expect(names(routes)).toEqual(['a.all']);
  });
  it('regex ".*" without headers is catch-all; with a header matcher it is not', () => {
    expect(names(build([{ name: 'a', match: [{ uri: { regex: '.*' } }], route: [to(REVIEWS)] }, { name: 'b', route: [to(REVIEWS)] }]).routes)).toEqual(['a']);
    expect(
      names(build([{ name: 'a', match: [{ uri: { regex: '.*' }, headers: { x: { exact: '1' } } }], route: [to(REVIEWS)] }, { name: 'b', route: [to(REVIEWS)] }]).routes),
    ).toEqual(['a', 'b']);
  });
  it('a match skipped for this port is not catch-all: later matches and routes are emitted', () => {
    const { routes } = build([
      { name: 'a', match: [{ name: 'p8080', port: 8080 }, { name: 'api', uri: { prefix: '/api' } }], route: [to(REVIEWS)] },
      { name: 'b', route: [to(REVIEWS)] },
    ]);
    expect(names(routes)).toEqual(['a.api', 'b']);
  });
  it('several matches of one http route → one route each, named <route>.<match>', () => {
    const { routes } = build([{ name: 'r', match: [{ name: 'one', uri: { exact: '/1' } }, { uri: { prefix: '/2' } }], route: [to(REVIEWS)] }]);
    expect(names(routes)).toEqual(['r.one', 'r']);
    expect(build([{ name: 's', match: [{ statPrefix: 'my-stats', uri: { prefix: '/s' } }], route: [to(REVIEWS)] }]).routes[0]?.statPrefix).toBe('my-stats');
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
      { name: 'x', match: [{ uri: { exact: '/e' }, ignoreUriCase: true }, { uri: { regex: '/r[0-9]+' } }, { uri: { prefix: '/p' } }], route: [to(REVIEWS)] },
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
    const [r] = build([{ name: 'j', match: [{ headers: { '@request.auth.claims.group': { exact: 'admin' } } }], route: [to(REVIEWS)] }]).routes;
    expect(r?.match?.headers).toBeUndefined();
    expect(r?.match?.dynamicMetadata?.[0]).toMatchObject({ filter: 'envoy.filters.http.jwt_authn', path: [{ key: 'payload' }, { key: 'group' }] });
  });
});

describe('actions', () => {
  it('redirect: all fields and response codes (ApplyRedirect)', () => {
    const [r] = build([{ name: 'r', redirect: { uri: '/new', authority: 'example.com', scheme: 'https', port: 8443, redirectCode: 302 } }]).routes;
    expect(r?.redirect).toEqual({ hostRedirect: 'example.com', pathRedirect: '/new', schemeRedirect: 'https', portRedirect: 8443, responseCode: 'FOUND' });
    expect(r?.route).toBeUndefined();
    // no single cluster → GetRouteOperation falls back to <vs name>:<port><path>
    expect(r?.decorator).toEqual({ operation: 'vs:9080/*' });
    const codes = [301, 303, 307, 308].map((c) => build([{ name: 'r', redirect: { uri: '/n', redirectCode: c } }]).routes[0]?.redirect?.responseCode);
    expect(codes).toEqual([undefined, 'SEE_OTHER', 'TEMPORARY_REDIRECT', 'PERMANENT_REDIRECT']);
  });
  it('redirect derivePort FROM_REQUEST_PORT uses the listener port, dropping :80 for http and :443 for https', () => {
    const derive: HTTPRoute[] = [{ name: 'd', redirect: { uri: '/n', derivePort: 'FROM_REQUEST_PORT' } }];
    expect(build(derive).routes[0]?.redirect?.portRedirect).toBe(9080);
    expect(build(derive, { listenerPort: 80 }).routes[0]?.redirect?.portRedirect).toBeUndefined();
    expect(build(derive, { listenerPort: 443, isTLS: true }).routes[0]?.redirect?.portRedirect).toBeUndefined();
    expect(build([{ name: 'd', redirect: { uri: '/n', derivePort: 'FROM_PROTOCOL_DEFAULT' } }]).routes[0]?.redirect?.portRedirect).toBeUndefined();
  });
  it('unsupported redirect code → located error, no route', () => {
    const { routes, errors } = build([{ name: 'r', redirect: { uri: '/n', redirectCode: 305 } }]);
    expect(routes).toEqual([]);
    expect(errors[0]).toMatchObject({ severity: 'error', object: 'VirtualService default/vs', path: 'spec.http[0].redirect.redirectCode', file: 'vs.yaml', doc: 0 });
  });
  it('directResponse with string and bytes bodies (ApplyDirectResponse)', () => {
    const [a] = build([{ name: 'd', directResponse: { status: 503, body: { string: 'nope' } } }]).routes;
    expect(a?.directResponse).toEqual({ status: 503, body: { inlineString: 'nope' } });
    const [b] = build([{ name: 'd', directResponse: { status: 200, body: { bytes: 'aGVsbG8=' } } }]).routes;
    expect(b?.directResponse).toEqual({ status: 200, body: { inlineBytes: 'aGVsbG8=' } });
  });
  it('rewrite uri → prefix_rewrite, authority → host_rewrite_literal; uriRegexRewrite → regex_rewrite', () => {
    const [a] = build([{ name: 'w', rewrite: { uri: '/v2', authority: 'new.host' }, route: [to(REVIEWS)] }]).routes;
    expect(a?.route).toMatchObject({ prefixRewrite: '/v2', hostRewriteLiteral: 'new.host', cluster: `outbound|9080||${REVIEWS}` });
    const [b] = build([{ name: 'w', rewrite: { uriRegexRewrite: { match: '^/a/(.*)', rewrite: '/b/\\1' } }, route: [to(REVIEWS)] }]).routes;
    expect(b?.route?.regexRewrite).toEqual({ pattern: { regex: '^/a/(.*)' }, substitution: '/b/\\1' });
    expect(b?.route?.prefixRewrite).toBeUndefined();
  });
  it('timeout sets timeout and max_grpc_timeout (setTimeout); invalid duration → error and 0s', () => {
    expect(build([{ name: 't', timeout: '10s', route: [to(REVIEWS)] }]).routes[0]?.route).toMatchObject({ timeout: '10s', maxGrpcTimeout: '10s' });
    expect(build([{ name: 't', timeout: '1.5s', route: [to(REVIEWS)] }]).routes[0]?.route?.timeout).toBe('1.500s');
    const bad = build([{ name: 't', timeout: 'soon', route: [to(REVIEWS)] }]);
    expect(bad.routes[0]?.route?.timeout).toBe('0s');
    expect(bad.errors).toEqual([expect.objectContaining({ path: 'spec.http[0].timeout', object: 'VirtualService default/vs' })]);
  });
  it('destination port, subset and the service-single-port rule (GetDestinationCluster)', () => {
    const r = build([
      {
        name: 'c',
        route: [
          { destination: { host: RATINGS, port: { number: 7777 } }, weight: 10 },
          { destination: { host: RATINGS }, weight: 20 },
          { destination: { host: 'multi.default.svc.cluster.local' }, weight: 30 },
          { destination: { host: 'unknown.example.com', subset: 'v9' }, weight: 40 },
          { destination: { host: RATINGS, subset: 'v2' }, weight: 0 },
        ],
      },
    ]).routes;
    expect(r[0]?.route?.weightedClusters?.clusters?.map((c) => [c.name, c.weight])).toEqual([
      [`outbound|7777||${RATINGS}`, 10],
      [`outbound|9080||${RATINGS}`, 20],
      ['outbound|9080||multi.default.svc.cluster.local', 30],
      ['outbound|9080|v9|unknown.example.com', 40],
    ]);
    const multi8080 = build([{ name: 'c', route: [to('multi.default.svc.cluster.local')] }], { listenerPort: 8080 }).routes;
    expect(multi8080[0]?.route?.cluster).toBe('outbound|8080||multi.default.svc.cluster.local');
  });
  it('all-zero weights → located error and no route', () => {
    const { routes, errors } = build([{ name: 'z', route: [{ ...to(REVIEWS, 'v1'), weight: 0 }, { ...to(REVIEWS, 'v2'), weight: 0 }] }]);
    expect(routes).toEqual([]);
    expect(errors.map((e) => e.path)).toEqual(['spec.http[0].route']);
  });
});

describe('retries (retry.go:ConvertPolicy)', () => {
  const retry = (retries: HTTPRoute['retries']) => build([{ name: 'r', retries, route: [to(REVIEWS)] }]).routes[0]?.route?.retryPolicy;
  it('custom attempts, perTryTimeout, retryOn with status codes → retriable_status_codes', () => {
    expect(retry({ attempts: 3, perTryTimeout: '2s', retryOn: 'gateway-error,connect-failure,503' })).toEqual({
      ...DEFAULT_RETRY,
      numRetries: 3,
      perTryTimeout: '2s',
      retryOn: 'gateway-error,connect-failure,retriable-status-codes',
      retriableStatusCodes: [503],
    });
  });
  it('retryOn without codes clears the default 503; only codes → ",retriable-status-codes" as istiod writes it', () => {
    const a = retry({ attempts: 1, retryOn: '5xx' });
    expect(a?.retryOn).toBe('5xx');
    expect(a?.retriableStatusCodes).toBeUndefined();
    expect(retry({ attempts: 1, retryOn: '503,504' })).toMatchObject({ retryOn: ',retriable-status-codes', retriableStatusCodes: [503, 504] });
  });
  it('attempts 0 (or absent in a given policy) → no retry policy', () => {
    expect(retry({ attempts: 0 })).toBeUndefined();
    expect(retry({ perTryTimeout: '1s' })).toBeUndefined();
  });
  it('retryIgnorePreviousHosts false removes the predicate; backoff → retry_back_off', () => {
    const p = retry({ attempts: 2, retryIgnorePreviousHosts: false, backoff: '25ms' });
    expect(p?.retryHostPredicate).toBeUndefined();
    expect(p?.retryBackOff).toEqual({ baseInterval: '0.025s' });
  });
  it('consistent hash on a single destination → hash_policy and default policy without previous_hosts', () => {
    const r = build([{ name: 'h', route: [to(REVIEWS)] }], { consistentHash: () => ({ httpHeaderName: 'x-user' }) }).routes[0];
    expect(r?.route?.hashPolicy).toEqual([{ header: { headerName: 'x-user' } }]);
    expect(r?.route?.retryPolicy).toEqual({ retryOn: DEFAULT_RETRY_ON, numRetries: 2, hostSelectionRetryMaxAttempts: '5', retriableStatusCodes: [503] });
  });
});

describe('mirror, CORS and header operations', () => {
  it('mirror with mirrorPercentage → request_mirror_policies in millionths; explicit 0 → none; mirrors default 100%', () => {
    const [a] = build([{ name: 'm', route: [to(REVIEWS)], mirror: { host: RATINGS, subset: 'v2' }, mirrorPercentage: { value: 50 } }]).routes;
    expect(a?.route?.requestMirrorPolicies).toEqual([
      { cluster: `outbound|9080|v2|${RATINGS}`, runtimeFraction: { defaultValue: { numerator: 500000, denominator: 'MILLION' } }, traceSampled: false },
    ]);
    const [b] = build([{ name: 'm', route: [to(REVIEWS)], mirror: { host: RATINGS }, mirrorPercentage: { value: 0 } }]).routes;
    expect(b?.route?.requestMirrorPolicies).toBeUndefined();
    const [c] = build([{ name: 'm', route: [to(REVIEWS)], mirrors: [{ destination: { host: RATINGS } }, { destination: { host: RATINGS }, percentage: { value: 0.1 } }] }]).routes;
    expect(c?.route?.requestMirrorPolicies?.map((p) => p.runtimeFraction)).toEqual([
      { defaultValue: { numerator: 100 } },
      { defaultValue: { numerator: 1000, denominator: 'MILLION' } },
    ]);
  });
  it('corsPolicy → envoy.filters.http.cors CorsPolicy (TranslateCORSPolicy)', () => {
    const [r] = build([
      {
        name: 'c',
        route: [to(REVIEWS)],
        corsPolicy: {
          allowOrigins: [{ exact: 'https://a.com' }, { regex: '.*b.com' }],
          allowMethods: ['GET', 'POST'],
          allowHeaders: ['x-a'],
          exposeHeaders: ['x-b'],
          maxAge: '24h',
          allowCredentials: true,
        },
      },
    ]).routes;
    expect(r?.typedPerFilterConfig).toEqual({
      'envoy.filters.http.cors': {
        '@type': EXT.corsPolicy,
        forwardNotMatchingPreflights: true,
        allowOriginStringMatch: [{ exact: 'https://a.com' }, { safeRegex: { regex: '.*b.com' } }],
        filterEnabled: { defaultValue: { numerator: 100 } },
        allowCredentials: true,
        allowHeaders: 'x-a',
        allowMethods: 'GET,POST',
        exposeHeaders: 'x-b',
        maxAge: '86400',
      },
    });
  });
  it('headers: set → OVERWRITE_IF_EXISTS_OR_ADD, add → append (default), sorted, set first; remove drops pseudo headers; host → host_rewrite_literal', () => {
    const [r] = build([
      {
        name: 'h',
        route: [to(REVIEWS)],
        headers: {
          request: { set: { b: '2', a: '1', host: 'h.example' }, add: { c: '3' }, remove: ['x', ':path'] },
          response: { add: { z: '9' }, remove: ['y'] },
        },
      },
    ]).routes;
    expect(r?.requestHeadersToAdd).toEqual([
      { header: { key: 'a', value: '1' }, appendAction: 'OVERWRITE_IF_EXISTS_OR_ADD' },
      { header: { key: 'b', value: '2' }, appendAction: 'OVERWRITE_IF_EXISTS_OR_ADD' },
      { header: { key: 'c', value: '3' } },
    ]);
    expect(r?.requestHeadersToRemove).toEqual(['x']);
    expect(r?.responseHeadersToAdd).toEqual([{ header: { key: 'z', value: '9' } }]);
    expect(r?.responseHeadersToRemove).toEqual(['y']);
    expect(r?.route?.hostRewriteLiteral).toBe('h.example');
  });
  it('per-destination headers go on the weighted cluster entry (processWeightedDestination)', () => {
    const [r] = build([
      {
        name: 'w',
        route: [
          { ...to(REVIEWS, 'v1'), weight: 50, headers: { request: { set: { 'x-v': '1' } } } },
          { ...to(REVIEWS, 'v2'), weight: 50 },
        ],
      },
    ]).routes;
    expect(r?.route?.weightedClusters?.clusters?.[0]).toEqual({
      name: `outbound|9080|v1|${REVIEWS}`,
      weight: 50,
      requestHeadersToAdd: [{ header: { key: 'x-v', value: '1' }, appendAction: 'OVERWRITE_IF_EXISTS_OR_ADD' }],
    });
    expect(r?.requestHeadersToAdd).toBeUndefined();
  });
});

describe('bad input never throws', () => {
  it('junk http entries, missing destinations and non-array fields produce errors, not exceptions', () => {
    const vs = virtualService('junk', 'default', { hosts: [REVIEWS], http: [null as unknown as HTTPRoute, { name: 'x', match: [{ uri: { prefix: '/x' } }] }, { match: null as unknown as [], route: [to(REVIEWS)] }] });
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
