// Expected values follow istio pilot/pkg/networking/core/route/route.go (function named per test)
// and route/retry/retry.go; see istio-translation.md §5. Actions, retries, mirrors, CORS and headers;
// matches and catch-alls are in httpRoutes.test.ts.
import { describe, expect, it } from 'vitest';
import type { HTTPRoute } from '../../../model/istio';
import { EXT } from '../../../envoy/typeUrls';
import { build, RATINGS, REVIEWS, to } from './httpRoutes.testing';
import { DEFAULT_RETRY_ON } from './retry';
import { DEFAULT_RETRY } from './testing';

describe('actions', () => {
  it('redirect: all fields and response codes (ApplyRedirect)', () => {
    const [r] = build([
      { name: 'r', redirect: { uri: '/new', authority: 'example.com', scheme: 'https', port: 8443, redirectCode: 302 } },
    ]).routes;
    expect(r?.redirect).toEqual({
      hostRedirect: 'example.com',
      pathRedirect: '/new',
      schemeRedirect: 'https',
      portRedirect: 8443,
      responseCode: 'FOUND',
    });
    expect(r?.route).toBeUndefined();
    // no single cluster → GetRouteOperation falls back to <vs name>:<port><path>
    expect(r?.decorator).toEqual({ operation: 'vs:9080/*' });
    const codes = [301, 303, 307, 308].map(
      (c) => build([{ name: 'r', redirect: { uri: '/n', redirectCode: c } }]).routes[0]?.redirect?.responseCode,
    );
    expect(codes).toEqual([undefined, 'SEE_OTHER', 'TEMPORARY_REDIRECT', 'PERMANENT_REDIRECT']);
  });
  it('redirect derivePort FROM_REQUEST_PORT uses the listener port, dropping :80 for http and :443 for https', () => {
    const derive: HTTPRoute[] = [{ name: 'd', redirect: { uri: '/n', derivePort: 'FROM_REQUEST_PORT' } }];
    expect(build(derive).routes[0]?.redirect?.portRedirect).toBe(9080);
    expect(build(derive, { listenerPort: 80 }).routes[0]?.redirect?.portRedirect).toBeUndefined();
    expect(build(derive, { listenerPort: 443, isTLS: true }).routes[0]?.redirect?.portRedirect).toBeUndefined();
    expect(
      build([{ name: 'd', redirect: { uri: '/n', derivePort: 'FROM_PROTOCOL_DEFAULT' } }]).routes[0]?.redirect?.portRedirect,
    ).toBeUndefined();
  });
  it('unsupported redirect code → located error, no route', () => {
    const { routes, errors } = build([{ name: 'r', redirect: { uri: '/n', redirectCode: 305 } }]);
    expect(routes).toEqual([]);
    expect(errors[0]).toMatchObject({
      severity: 'error',
      object: 'VirtualService default/vs',
      path: 'spec.http[0].redirect.redirectCode',
      file: 'vs.yaml',
      doc: 0,
    });
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
    expect(build([{ name: 't', timeout: '10s', route: [to(REVIEWS)] }]).routes[0]?.route).toMatchObject({
      timeout: '10s',
      maxGrpcTimeout: '10s',
    });
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
    const { routes, errors } = build([
      {
        name: 'z',
        route: [
          { ...to(REVIEWS, 'v1'), weight: 0 },
          { ...to(REVIEWS, 'v2'), weight: 0 },
        ],
      },
    ]);
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
    expect(retry({ attempts: 1, retryOn: '503,504' })).toMatchObject({
      retryOn: ',retriable-status-codes',
      retriableStatusCodes: [503, 504],
    });
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
    expect(r?.route?.retryPolicy).toEqual({
      retryOn: DEFAULT_RETRY_ON,
      numRetries: 2,
      hostSelectionRetryMaxAttempts: '5',
      retriableStatusCodes: [503],
    });
  });
});

describe('mirror, CORS and header operations', () => {
  it('mirror with mirrorPercentage → request_mirror_policies in millionths; explicit 0 → none; mirrors default 100%', () => {
    const [a] = build([
      { name: 'm', route: [to(REVIEWS)], mirror: { host: RATINGS, subset: 'v2' }, mirrorPercentage: { value: 50 } },
    ]).routes;
    expect(a?.route?.requestMirrorPolicies).toEqual([
      {
        cluster: `outbound|9080|v2|${RATINGS}`,
        runtimeFraction: { defaultValue: { numerator: 500000, denominator: 'MILLION' } },
        traceSampled: false,
      },
    ]);
    const [b] = build([{ name: 'm', route: [to(REVIEWS)], mirror: { host: RATINGS }, mirrorPercentage: { value: 0 } }]).routes;
    expect(b?.route?.requestMirrorPolicies).toBeUndefined();
    const [c] = build([
      {
        name: 'm',
        route: [to(REVIEWS)],
        mirrors: [{ destination: { host: RATINGS } }, { destination: { host: RATINGS }, percentage: { value: 0.1 } }],
      },
    ]).routes;
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
