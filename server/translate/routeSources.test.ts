// Route provenance recorded by translation (ResourceTable.provenance): which VirtualService rule, and which
// delegate rule, produced each route, keyed by (route config, virtual host, index). Expectations follow
// Istio's route generation, not this code's output:
// - route.go BuildHTTPRoutesForVirtualService: per http rule in order, one route per match that applies to
//   the proxy (a match whose sourceLabels do not select the proxy is dropped), one route for a rule without
//   match; istiod writes only the VirtualService in route metadata (AddConfigInfoMetadata), so the rule is
//   what translation must carry;
// - virtualservice.go mergeHTTPRoutes: a root rule with `delegate` is replaced by the delegate's rules
//   (conflicting ones dropped), each merged route still named by the root rule and the delegate's own index;
// - gateway.go buildGatewayHTTPRouteConfig: VirtualServices on the same gateway host append their routes
//   (creation order), then route.go SortVHostRoutes moves catch-all routes last.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { translateProxy } from './index';
import { routeSourceIndex, ruleLabel } from './routeSources';
import { deployment, meshFromYaml, proxyWith } from './testing/yamlMesh';

const svc = (name: string, ns = 'default', port = 9080) => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: {app: ${name}}
  ports: [{name: http, port: ${port}, targetPort: ${port}}]
`;
const NS = `apiVersion: v1
kind: Namespace
metadata: {name: default, labels: {istio-injection: enabled}}
`;
const docs = (...d: string[]) => d.join('---\n');
const REVIEWS_VH = 'reviews.default.svc.cluster.local:9080';

describe('route provenance (sidecar)', () => {
  const mesh = meshFromYaml(
    docs(
      NS,
      svc('reviews'),
      svc('productpage'),
      deployment('productpage', 'default', { app: 'productpage' }),
      deployment('reviews', 'default', { app: 'reviews' }),
      `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: default}
spec:
  hosts: [reviews]
  http:
  - match: [{sourceLabels: {app: other}, uri: {prefix: /a}}]
    route: [{destination: {host: reviews, subset: v3}}]
  - name: jason
    match: [{headers: {end-user: {exact: jason}}}, {uri: {prefix: /jason}}]
    route: [{destination: {host: reviews, subset: v2}}]
  - route: [{destination: {host: reviews, subset: v1}}]
`,
    ),
  );
  const table = translateProxy(mesh, proxyWith(mesh, 'default', { app: 'productpage' }));
  const at = routeSourceIndex(table.provenance);

  it('one entry per VirtualService route, naming the rule as written and the match within it', () => {
    // http[0]'s only match selects app=other, so productpage gets no route from it: the first route is http[1].match[0].
    expect(at('9080', REVIEWS_VH, 0)).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[1]', match: 0 });
    expect(at('9080', REVIEWS_VH, 1)).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[1]', match: 1 });
    expect(at('9080', REVIEWS_VH, 2)).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[2]' });
    expect(at('9080', REVIEWS_VH, 3)).toBeUndefined();
  });

  it('routes istiod makes itself (service default route, allow_any catch-all) have none', () => {
    expect(at('9080', 'productpage.default.svc.cluster.local:9080', 0)).toBeUndefined();
    expect(at('9080', 'allow_any', 0)).toBeUndefined();
    expect(table.provenance.every((p) => p.virtualHost === REVIEWS_VH)).toBe(true);
  });

  it('keys name the route as Envoy gets it (route names, positions)', () => {
    const rc = table.routes.find((r) => r.name === '9080');
    const vh = rc?.virtualHosts?.find((v) => v.name === REVIEWS_VH);
    expect(vh?.routes?.map((r) => r.name ?? '')).toEqual(['jason', 'jason', '']);
    expect(table.provenance.map((p) => [p.index, p.route ?? ''])).toEqual([
      [0, 'jason'],
      [1, 'jason'],
      [2, ''],
    ]);
  });
});

describe('route provenance (delegation)', () => {
  // testdata/delegate-sidecar: root shop/api http[0] delegates to team/users-routes, whose http[1]
  // ('wrong-prefix', /v2 not under /v1/users) conflicts with the root match and is dropped.
  const text = readFileSync(join(REPO_ROOT, 'server/translate/testdata/delegate-sidecar/in.yaml'), 'utf8');
  const mesh = meshFromYaml(text);
  const table = translateProxy(mesh, proxyWith(mesh, 'shop', { app: 'web' }));
  const at = routeSourceIndex(table.provenance);
  const VH = 'api.shop.svc.cluster.local:8080';

  it('merged routes name the root rule and the delegate rule they came from', () => {
    const root = { kind: 'VirtualService', namespace: 'shop', name: 'api' };
    expect(at('8080', VH, 0)).toEqual({ ...root, rule: 'http[0]', delegate: { namespace: 'team', name: 'users-routes', rule: 'http[0]' } });
    expect(at('8080', VH, 1)).toEqual({ ...root, rule: 'http[0]', delegate: { namespace: 'team', name: 'users-routes', rule: 'http[2]' } });
    expect(at('8080', VH, 2)).toEqual({ ...root, rule: 'http[1]' });
    expect(ruleLabel(at('8080', VH, 1)!)).toBe('http[0] → delegate team/users-routes http[2]');
  });
});

describe('route provenance (gateway host merging)', () => {
  const mesh = meshFromYaml(
    docs(
      NS,
      `apiVersion: v1
kind: Namespace
metadata: {name: istio-system}
`,
      svc('a'),
      svc('b'),
      deployment('ingress', 'istio-system', { istio: 'ingressgateway' }, true),
      `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 8080, name: http, protocol: HTTP}, hosts: ["*"]}]
`,
      `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: first, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  hosts: ["*"]
  gateways: [gw]
  http:
  - route: [{destination: {host: a}}]
`,
      `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: second, namespace: default, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  hosts: ["*"]
  gateways: [gw]
  http:
  - match: [{uri: {prefix: /b}}]
    route: [{destination: {host: b}}]
`,
    ),
  );
  const table = translateProxy(mesh, proxyWith(mesh, 'istio-system', { istio: 'ingressgateway' }));
  const at = routeSourceIndex(table.provenance);

  it("the second VirtualService's route comes first once the first one's catch-all is moved last", () => {
    const vh = table.routes.find((r) => r.name === 'http.8080')?.virtualHosts?.find((v) => v.name === '*:8080');
    expect(vh?.routes?.map((r) => r.match)).toEqual([{ prefix: '/b', caseSensitive: true }, { prefix: '/' }]);
    expect(at('http.8080', '*:8080', 0)).toMatchObject({ name: 'second', rule: 'http[0]', match: 0 });
    expect(at('http.8080', '*:8080', 1)).toMatchObject({ name: 'first', rule: 'http[0]' });
    expect(at('http.8080', '*:8080', 1)?.match).toBeUndefined();
  });
});
