// Acceptance: Bookinfo's Gateway API manifests (../shared/fixtures/istio-bookinfo/gateway-api/) with
// platform/bookinfo.yaml and platform/bookinfo-versions.yaml load and translate, through the real pipeline
// (snapshot → translation → simulator). Expectations follow istiod's Gateway API controller
// (pilot/pkg/config/kube/gateway/route_collections.go HTTPRouteCollection: a Service parentRef gives a mesh
// VirtualService `<ns>~<port>~<host>` for that host with every match restricted to the parentRef port;
// buildHTTPDestination keeps backendRef weights) and its gateway deployment controller (kube-gateway.yaml: the
// `<gateway>-istio` pods are the gateway's proxies). e2e/fixtures/bookinfo-gateway-istio.yaml plays that
// controller's output.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildSnapshot } from '../model/snapshot';
import { proxyResources } from '../pipeline/proxyResources';
import { simulate, type EnvoyConfig } from '../simulate/index';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, REPO_ROOT } from '../testing/paths';

const fq = (n: string) => `${n}.default.svc.cluster.local`;
const PLATFORM = [bookinfo('platform', 'bookinfo.yaml'), bookinfo('platform', 'bookinfo-versions.yaml')];
const GATEWAY_POD = join(REPO_ROOT, 'e2e', 'fixtures', 'bookinfo-gateway-istio.yaml');

function load(...files: string[]) {
  const { inputs, errors } = loadPaths(files);
  return buildSnapshot(inputs, { version: 1, extraErrors: errors });
}
type Snap = ReturnType<typeof load>;

function configOf(snap: Snap, match: (labels: Readonly<Record<string, string>>) => boolean): EnvoyConfig {
  const p = snap.proxies.find((x) => match(x.labels));
  if (!p) throw new Error('no such proxy');
  const r = proxyResources(snap, p.id)!;
  return {
    listeners: r.listeners.map((e) => e.json),
    routes: r.routes.map((e) => e.json),
    clusters: r.clusters.map((e) => e.json),
    endpoints: r.endpoints.map((e) => e.json),
  };
}

describe('GAMMA: route-reviews-90-10.yaml splits productpage → reviews between reviews-v1 and reviews-v2', () => {
  const snap = load(...PLATFORM, bookinfo('gateway-api', 'route-reviews-90-10.yaml'));
  it('loads without errors, and the HTTPRoute is Accepted with all references resolved', () => {
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
    const route = snap.gatewayApi?.routes.find((r) => r.name === 'reviews');
    expect(route?.parents).toHaveLength(1);
    expect(route?.parents[0]?.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Accepted', 'True', 'Accepted'],
      ['ResolvedRefs', 'True', 'ResolvedRefs'],
    ]);
  });

  it('the productpage sidecar sends reviews:9080 to reviews-v1 (90) and reviews-v2 (10)', () => {
    const cfg = configOf(snap, (l) => l.app === 'productpage');
    const r = simulate(cfg, { mode: 'outbound', address: '10.96.99.99', port: 9080, host: 'reviews:9080', path: '/reviews/0' });
    expect(r.error).toBeUndefined();
    expect(r.virtualHost).toBe(`${fq('reviews')}:9080`);
    expect(r.weightedClusters).toEqual({
      [`outbound|9080||${fq('reviews-v1')}`]: 90,
      [`outbound|9080||${fq('reviews-v2')}`]: 10,
    });
    // The route is the HTTPRoute's rule 0 (`<ns>.<route>.<rule>`), carried by the generated VirtualService.
    expect(r.route).toBe('default.reviews.0');
    expect(r.source).toMatchObject({ kind: 'VirtualService', namespace: 'default', name: `default~9080~${fq('reviews')}` });
  });

  it('the other services keep their default routes (no HTTPRoute for them in this file)', () => {
    const cfg = configOf(snap, (l) => l.app === 'productpage');
    const r = simulate(cfg, { mode: 'outbound', address: '10.96.99.99', port: 9080, host: 'details:9080', path: '/details/0' });
    expect(r).toMatchObject({ route: 'default', cluster: `outbound|9080||${fq('details')}` });
  });
});

describe('bookinfo-gateway.yaml: the Gateway API Gateway and its HTTPRoute', () => {
  it('without the gateway deployment the Gateway has no proxy, and is not Programmed (its Service is missing)', () => {
    const snap = load(...PLATFORM, bookinfo('gateway-api', 'bookinfo-gateway.yaml'));
    const gw = snap.gatewayApi?.gateways.find((g) => g.name === 'bookinfo-gateway');
    expect(gw?.proxy.proxies).toEqual([]);
    expect(gw?.proxy.deploymentName).toBe('bookinfo-gateway-istio');
    expect(gw?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'False', reason: 'AddressNotAssigned' });
    expect(snap.proxies.some((p) => p.type === 'router')).toBe(false);
  });

  describe('with the bookinfo-gateway-istio deployment', () => {
    const snap = load(...PLATFORM, bookinfo('gateway-api', 'bookinfo-gateway.yaml'), GATEWAY_POD);
    const gwCfg = () => configOf(snap, (l) => l['gateway.networking.k8s.io/gateway-name'] === 'bookinfo-gateway');
    const req = (path: string) => ({ mode: 'gateway' as const, address: '10.96.99.99', port: 80, host: 'bookinfo.example.com', path });

    it('the pod is a router proxy of the Gateway, which is Programmed on its Service', () => {
      const gw = snap.gatewayApi?.gateways.find((g) => g.name === 'bookinfo-gateway');
      expect(gw?.proxy.proxies).toHaveLength(1);
      expect(snap.proxiesById.get(gw?.proxy.proxies[0] ?? '')?.type).toBe('router');
      expect(gw?.conditions.find((c) => c.type === 'Programmed')?.status).toBe('True');
      expect(gw?.listeners[0]).toMatchObject({ name: 'http', attachedRoutes: 1 });
    });

    it('listens on the listener port 80 with RDS http.80', () => {
      const names = gwCfg().listeners.map((l) => (l as { name?: string }).name);
      expect(names).toEqual(['0.0.0.0_80']);
    });

    it('GET /productpage → productpage:9080 via the HTTPRoute rule default.bookinfo.0 (Exact path)', () => {
      const r = simulate(gwCfg(), req('/productpage'));
      expect(r.error).toBeUndefined();
      expect(r).toMatchObject({ routeConfig: 'http.80', route: 'default.bookinfo.0', cluster: `outbound|9080||${fq('productpage')}` });
    });

    it('PathPrefix /static matches /static/x but not /staticx (path_separated_prefix, route.go gateway semantics)', () => {
      expect(simulate(gwCfg(), req('/static/app.js')).cluster).toBe(`outbound|9080||${fq('productpage')}`);
      expect(simulate(gwCfg(), req('/staticx')).error).toBe('no route matched');
    });
  });
});
