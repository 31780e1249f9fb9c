// Shared setup of the buildHttpRoutesForVirtualService tests (httpRoutes.test.ts, httpRouteActions.test.ts):
// a sidecar route context on port 9080 and a build() that also checks every route encodes canonically.
import { expect } from 'vitest';
import type { RouteJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRoute } from '../../../model/istio';
import type { RouteContext } from './context';
import { buildHttpRoutesForVirtualService } from './httpRoutes';
import { canonicalDiff, encodeRoute, service, virtualService } from './testing';

export const REVIEWS = 'reviews.default.svc.cluster.local';
export const RATINGS = 'ratings.default.svc.cluster.local';
export const services = [
  service('reviews', 'default', [[9080]]),
  service('ratings', 'default', [[9080]]),
  service('multi', 'default', [[8080], [9080]]),
];

export const ctx = (over: Partial<RouteContext> = {}): RouteContext => ({
  listenerPort: 9080,
  gatewayNames: new Set(['mesh']),
  proxyLabels: { app: 'productpage', version: 'v1' },
  proxyNamespace: 'default',
  serviceLookup: (h) => services.find((s) => s.hostname === h),
  isGateway: false,
  ...over,
});

export const META = (name: string, ns = 'default') => ({
  filterMetadata: { istio: { config: `/apis/networking.istio.io/v1/namespaces/${ns}/virtual-service/${name}` } },
});

export function build(http: HTTPRoute[], c: Partial<RouteContext> = {}, name = 'vs') {
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
export const to = (host: string, subset?: string) => ({ destination: subset ? { host, subset } : { host } });
export const names = (rs: RouteJson[]) => rs.map((r) => r.name);
