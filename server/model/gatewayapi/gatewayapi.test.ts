// Unit rules of the Gateway API conversion, each checked against the istiod function named in the test
// (pilot/pkg/config/kube/gateway/*.go) and the gateway-api CRD defaults.
import { describe, expect, it } from 'vitest';
import type { RawInput } from '../inputs';
import { buildSnapshot } from '../snapshot';
import { gatewayApiRuleOf } from './provenance';
import { sortHttpRoutes } from './routes';
import { httpRouteSpec, gatewaySpec } from './schema';

const origin = { source: 'file' as const, file: 'x.yaml' };
const obj = (o: Record<string, unknown>): RawInput => ({ object: o, origin });
const svc = (name: string, ns = 'default', port = 80): RawInput =>
  obj({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns },
    spec: { selector: { app: name }, ports: [{ name: 'http', port }] },
  });
const gateway = (listeners: unknown[], ns = 'default'): RawInput =>
  obj({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'gw', namespace: ns },
    spec: { gatewayClassName: 'istio', listeners },
  });
const route = (name: string, spec: Record<string, unknown>, ns = 'default'): RawInput =>
  obj({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name, namespace: ns }, spec });
const snap = (...inputs: RawInput[]) => buildSnapshot(inputs, { version: 1 });

describe('CRD defaults (gateway-api config/crd: the values the API server fills in)', () => {
  it('a rule without matches gets PathPrefix /, a backendRef weight 1 / kind Service, a parentRef kind Gateway', () => {
    const s = httpRouteSpec.parse({ parentRefs: [{ name: 'gw' }], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] });
    expect(s.parentRefs[0]).toEqual({ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gw' });
    expect(s.rules[0]?.matches).toEqual([{ path: { type: 'PathPrefix', value: '/' }, headers: [], queryParams: [] }]);
    expect(s.rules[0]?.backendRefs[0]).toMatchObject({ group: '', kind: 'Service', weight: 1 });
  });
  it('a path without type is PathPrefix, a header match without type Exact; allowedRoutes defaults to from: Same', () => {
    const s = httpRouteSpec.parse({ rules: [{ matches: [{ path: { value: '/a' }, headers: [{ name: 'h', value: 'v' }] }] }] });
    expect(s.rules[0]?.matches[0]).toMatchObject({
      path: { type: 'PathPrefix', value: '/a' },
      headers: [{ type: 'Exact', name: 'h', value: 'v' }],
    });
    const g = gatewaySpec.parse({ gatewayClassName: 'istio', listeners: [{ name: 'l', port: 80, protocol: 'HTTP' }] });
    expect(g.listeners[0]?.allowedRoutes.namespaces.from).toBe('Same');
  });
  it('a Gateway without listeners is rejected as the API server would, with a located error', () => {
    const s = snap(gateway([]));
    expect(s.errors).toMatchObject([{ severity: 'error', object: 'Gateway default/gw', path: 'spec.listeners', file: 'x.yaml' }]);
  });
});

describe('sortHTTPRoutes (conversion.go)', () => {
  it('exact > prefix > regex, longer path first, then method, more headers, more query params; no match last; stable', () => {
    const r = (name: string, match?: object) => ({ name, ...(match ? { match: [match] } : {}) });
    const sorted = sortHttpRoutes([
      r('none'),
      r('regex', { uri: { regex: '/a.*' } }),
      r('p-short', { uri: { prefix: '/a' } }),
      r('p-long', { uri: { prefix: '/abc' } }),
      r('p-short-q', { uri: { prefix: '/a' }, queryParams: { q: { exact: '1' } } }),
      r('p-short-h', { uri: { prefix: '/a' }, headers: { h: { exact: '1' } } }),
      r('p-short-m', { uri: { prefix: '/a' }, method: { exact: 'GET' } }),
      r('exact', { uri: { exact: '/a' } }),
      r('p-short-2', { uri: { prefix: '/a' } }),
    ]);
    expect(sorted.map((x) => x.name)).toEqual([
      'exact',
      'p-long',
      'p-short-m',
      'p-short-h',
      'p-short-q',
      'p-short',
      'p-short-2',
      'regex',
      'none',
    ]);
  });
});

describe('listener hosts (buildHostnameMatch / namespacesFromSelector)', () => {
  const hostsOf = (s: ReturnType<typeof snap>) =>
    Object.fromEntries(s.gateways.map((g) => [g.meta.name.split('~').at(-1), g.spec.servers[0]?.hosts]));
  it('Same → <gw ns>/host; All → */host; a Selector → the matching namespaces, sorted; none matching → ~/host', () => {
    const ns = (name: string, labels: Record<string, string>) => obj({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    const s = snap(
      ns('b', { env: 'prod' }),
      ns('a', { env: 'prod' }),
      ns('c', { env: 'dev' }),
      gateway(
        [
          { name: 'same', port: 80, protocol: 'HTTP', hostname: 'x.example' },
          { name: 'all', port: 81, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'All' } } },
          {
            name: 'sel',
            port: 82,
            protocol: 'HTTP',
            allowedRoutes: { namespaces: { from: 'Selector', selector: { matchLabels: { env: 'prod' } } } },
          },
          {
            name: 'none',
            port: 83,
            protocol: 'HTTP',
            allowedRoutes: { namespaces: { from: 'Selector', selector: { matchLabels: { env: 'qa' } } } },
          },
        ],
        'c',
      ),
    );
    expect(hostsOf(s)).toEqual({ same: ['c/x.example'], all: ['*/*'], sel: ['a/*', 'b/*'], none: ['~/*'] });
  });
});

describe('route parents (referenceAllowed, createRouteStatus)', () => {
  const accepted = (s: ReturnType<typeof snap>, name: string) =>
    s.gatewayApi?.routes.find((r) => r.name === name)?.parents.map((p) => p.conditions.find((c) => c.type === 'Accepted'));
  it('a port or sectionName the Gateway does not have → NoMatchingParent, and no VirtualService', () => {
    const s = snap(
      svc('a'),
      gateway([{ name: 'http', port: 80, protocol: 'HTTP' }]),
      route('by-port', { parentRefs: [{ name: 'gw', port: 8080 }], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] }),
      route('by-section', { parentRefs: [{ name: 'gw', sectionName: 'https' }], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] }),
    );
    expect(accepted(s, 'by-port')).toEqual([
      { type: 'Accepted', status: 'False', reason: 'NoMatchingParent', message: 'port 8080 not found' },
    ]);
    expect(accepted(s, 'by-section')).toEqual([
      { type: 'Accepted', status: 'False', reason: 'NoMatchingParent', message: 'sectionName "https" not found' },
    ]);
    expect(s.virtualServices).toEqual([]);
  });
  it('route hostnames that no listener hostname matches → NoMatchingListenerHostname', () => {
    const s = snap(
      svc('a'),
      gateway([{ name: 'http', port: 80, protocol: 'HTTP', hostname: '*.example.com' }]),
      route('r', { parentRefs: [{ name: 'gw' }], hostnames: ['foo.other.org'], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] }),
    );
    expect(accepted(s, 'r')?.[0]).toMatchObject({ status: 'False', reason: 'NoMatchingListenerHostname' });
  });
  it('a wildcard listener does not serve a host a more specific listener on the same port serves (hostnameAllowedByIsolation)', () => {
    const s = snap(
      svc('a'),
      gateway([
        { name: 'wild', port: 80, protocol: 'HTTP', hostname: '*.example.com' },
        { name: 'exact', port: 80, protocol: 'HTTP', hostname: 'shop.example.com' },
      ]),
      route('r', { parentRefs: [{ name: 'gw' }], hostnames: ['shop.example.com'], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] }),
    );
    expect(s.virtualServices.map((v) => v.spec.gateways)).toEqual([['default/gw~istio-autogenerated-k8s-gateway~exact']]);
  });
  it('a Gateway whose class is not handled by Istio gives no config and a warning', () => {
    const s = snap(
      obj({
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'gw' },
        spec: { gatewayClassName: 'nginx', listeners: [{ name: 'l', port: 80, protocol: 'HTTP' }] },
      }),
    );
    expect(s.gateways).toEqual([]);
    expect(s.errors).toMatchObject([
      { severity: 'warning', path: 'spec.gatewayClassName', message: expect.stringMatching(/"nginx" not found/) },
    ]);
  });
});

describe('gatewayApiRuleOf (route names of generated VirtualServices)', () => {
  it('names the route and rule for a generated VirtualService, nothing for a user VirtualService', () => {
    expect(gatewayApiRuleOf('default~9080~reviews.default.svc.cluster.local', 'default.reviews.0')).toEqual({
      namespace: 'default',
      name: 'reviews',
      rule: 0,
    });
    expect(gatewayApiRuleOf('reviews', 'default.reviews.0')).toBeUndefined();
    expect(gatewayApiRuleOf('a~b', 'custom-name')).toBeUndefined();
  });
});

describe('validateRaw (the store keeps the last good version of an object that turns invalid)', () => {
  it('reports the schema issues of a Gateway API object, none for a valid one', async () => {
    const { validateRaw } = await import('../parse/objects');
    const bad = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'r' },
      spec: { rules: [{ backendRefs: [{ port: 80 }] }] },
    };
    expect(validateRaw(bad)).toEqual([{ path: 'spec.rules[0].backendRefs[0].name', message: expect.stringMatching(/required/) }]);
    expect(validateRaw({ ...bad, spec: { rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] } })).toEqual([]);
  });
});

describe('createCorsFilter (conversion.go)', () => {
  it('* → an origin-shaped regex, exact, trailing * → prefix, inner * → anchored regex; maxAge default 5s; unmatched preflights IGNORE', () => {
    const s = snap(
      svc('a'),
      gateway([{ name: 'http', port: 80, protocol: 'HTTP' }]),
      route('r', {
        parentRefs: [{ name: 'gw' }],
        rules: [
          {
            filters: [
              {
                type: 'CORS',
                cors: {
                  allowOrigins: ['*', 'https://example.com', 'https://app.*', 'https://*.example.com'],
                  allowMethods: ['GET'],
                  allowCredentials: true,
                },
              },
            ],
            backendRefs: [{ name: 'a', port: 80 }],
          },
        ],
      }),
    );
    expect(s.virtualServices[0]?.spec.http?.[0]?.corsPolicy).toEqual({
      allowOrigins: [
        { regex: '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s?#]+$' },
        { exact: 'https://example.com' },
        { prefix: 'https://app.' },
        { regex: '^https://.*\\.example\\.com$' },
      ],
      allowCredentials: true,
      allowMethods: ['GET'],
      maxAge: '5s',
      unmatchedPreflights: 'IGNORE',
    });
  });
});

describe('computeRoute: a hard conversion error drops the whole route', () => {
  it('an unsupported filter type → ResolvedRefs InvalidFilter, and no VirtualService for any rule', () => {
    const s = snap(
      svc('a'),
      gateway([{ name: 'http', port: 80, protocol: 'HTTP' }]),
      route('r', {
        parentRefs: [{ name: 'gw' }],
        rules: [
          { backendRefs: [{ name: 'a', port: 80 }] },
          { filters: [{ type: 'ExtensionRef' }], backendRefs: [{ name: 'a', port: 80 }] },
        ],
      }),
    );
    expect(s.virtualServices).toEqual([]);
    expect(s.gatewayApi?.routes[0]?.parents[0]?.conditions[1]).toEqual({
      type: 'ResolvedRefs',
      status: 'False',
      reason: 'InvalidFilter',
      message: 'unsupported filter type "ExtensionRef"',
    });
  });
});
