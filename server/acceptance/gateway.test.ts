// Gateway acceptance through the real CLI (bin/meshscope.mjs): `translate` + `simulate` on a router proxy.
// Rules: istio-translation.md §6; model/gateway.go mergeGateways/resolvePorts; networking/core/gateway.go
// buildGatewayHTTPRouteConfig (host merging across VirtualServices, routes appended in import order, catch-alls
// moved last by route.go SortVHostRoutes); httproute.go / route.go BuildSidecarVirtualHostWrapper (sidecars:
// the first imported VirtualService owns a host, no merging).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { cliJson } from './cliRun';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const INGRESS = join(REPO_ROOT, 'e2e', 'fixtures', 'ingressgateway.yaml');
const BOOKINFO = [
  '--config',
  bookinfo('platform', 'bookinfo.yaml'),
  '--config',
  bookinfo('networking', 'bookinfo-gateway.yaml'),
  '--config',
  INGRESS,
];
const PRODUCTPAGE = 'outbound|9080||productpage.default.svc.cluster.local';

const routerId = (cfg: string[], input?: string): string => {
  const proxies = cliJson<Json[]>(['proxies', ...cfg, '-o', 'json'], input);
  const r = proxies.find((p) => p.type === 'router' && p.labels.istio === 'ingressgateway');
  expect(r, 'ingress gateway proxy').toBeDefined();
  return r.id;
};

describe('Bookinfo through the ingress gateway (bookinfo-gateway.yaml + an istio-ingressgateway workload)', () => {
  const gw = routerId(BOOKINFO);
  const sim = (...args: string[]) => cliJson<Json>(['simulate', ...BOOKINFO, '--proxy', gw, '--mode', 'gateway', ...args]);

  // The server port 8080 is not a port of the istio-ingressgateway Service (80→8080, 443→8443): resolvePorts
  // listens on it as-is, so the pod listener is 0.0.0.0_8080 and the Service's port 80 lands there (targetPort).
  it('the gateway pod listens on 0.0.0.0_8080 with RDS http.8080 (resolvePorts, gatewayRDSRouteName)', () => {
    const dump = cliJson<Json>(['translate', ...BOOKINFO, '--proxy', gw, '--type', 'listeners']);
    const names = dump.configs[0].dynamic_listeners.map((l: Json) => l.name);
    expect(names).toEqual(['0.0.0.0_8080']);
  });

  for (const host of ['bookinfo.example.com', '192.0.2.1:80']) {
    it(`GET /productpage with Host ${host} lands on ${PRODUCTPAGE} (server hosts * × VirtualService hosts * → vhost *:8080)`, () => {
      const r = sim('--port', '8080', '--host', host, '--path', '/productpage');
      expect(r.error).toBeUndefined();
      expect(r.listener).toBe('0.0.0.0_8080');
      expect(r.routeConfig).toBe('http.8080');
      expect(r.virtualHost).toBe('*:8080');
      expect(r.cluster).toBe(PRODUCTPAGE);
      expect(r.source).toMatchObject({ kind: 'VirtualService', namespace: 'default', name: 'bookinfo' });
    });
  }

  it('GET /nothing-here gets "no route matched" (no bookinfo match applies, no catch-all route)', () => {
    expect(sim('--port', '8080', '--host', 'bookinfo.example.com', '--path', '/nothing-here').error).toBe('no route matched');
  });

  it('port 80 is the Service port: the request reaches the pod on targetPort 8080 (resolvePorts), and says so', () => {
    const r = sim('--port', '80', '--path', '/productpage');
    expect(r.error).toBeUndefined();
    expect(r.listener).toBe('0.0.0.0_8080');
    expect(r.cluster).toBe('outbound|9080||productpage.default.svc.cluster.local');
    expect(r.notes?.[0]).toMatch(/Service istio-system\/istio-ingressgateway's port; it reaches the gateway pod on targetPort 8080/);
  });

  it('a port that is neither a listener nor a Service port of the gateway: "no listener matched"', () => {
    expect(sim('--port', '9999', '--path', '/productpage').error).toBe('no listener matched');
  });
});

// One host `web`, three VirtualServices bound to both the gateway and `mesh`; the newest holds the `/` catch-all.
const THREE_VS = `
apiVersion: v1
kind: Namespace
metadata: { name: shop }
${['web', 'api', 'static', 'client']
  .map(
    (n, i) => `---
apiVersion: v1
kind: Service
metadata: { name: ${n}, namespace: shop }
spec:
  clusterIP: 10.96.50.${i + 10}
  selector: { app: ${n} }
  ports: [{ name: http, port: 80, targetPort: 8000 }]
---
apiVersion: v1
kind: Pod
metadata: { name: ${n}-0, namespace: shop, labels: { app: ${n} }, annotations: { sidecar.istio.io/status: '{}' } }
spec: { containers: [{ name: app, image: x, ports: [{ containerPort: 8000 }] }, { name: istio-proxy, image: proxyv2, args: [proxy, sidecar] }] }
status: { podIP: 10.1.50.${i + 10}, phase: Running, conditions: [{ type: Ready, status: "True" }] }`,
  )
  .join('\n')}
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: { name: shop-gw, namespace: shop }
spec:
  selector: { istio: ingressgateway }
  servers:
  - port: { number: 80, name: http, protocol: HTTP }
    hosts: ["*"]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: a-api, namespace: shop, creationTimestamp: "2024-01-01T00:00:00Z" }
spec:
  hosts: [web]
  gateways: [shop-gw, mesh]
  http:
  - match: [{ uri: { prefix: /api } }]
    route: [{ destination: { host: api } }]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: b-static, namespace: shop, creationTimestamp: "2024-01-02T00:00:00Z" }
spec:
  hosts: [web]
  gateways: [shop-gw, mesh]
  http:
  - match: [{ uri: { prefix: /static } }]
    route: [{ destination: { host: static } }]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: c-catch-all, namespace: shop, creationTimestamp: "2024-01-03T00:00:00Z" }
spec:
  hosts: [web]
  gateways: [shop-gw, mesh]
  http:
  - match: [{ uri: { prefix: / } }]
    route: [{ destination: { host: web } }]
`;

describe('three VirtualServices for one host: merged on a gateway, first one wins on a sidecar', () => {
  const cfg = ['--config', INGRESS, '--config', '-'];
  const gw = routerId(cfg, THREE_VS);
  const WEB = 'web.shop.svc.cluster.local';
  const simGw = (path: string) =>
    cliJson<Json>(['simulate', ...cfg, '--proxy', gw, '--mode', 'gateway', '--port', '8080', '--host', WEB, '--path', path], THREE_VS);
  const simSidecar = (path: string) =>
    cliJson<Json>(
      [
        'simulate',
        ...cfg,
        '--proxy',
        'client-0.shop',
        '--mode',
        'outbound',
        '--address',
        '10.96.50.10',
        '--port',
        '80',
        '--host',
        'web',
        '--path',
        path,
      ],
      THREE_VS,
    );

  it('gateway: vhost web.shop.svc.cluster.local:80 holds the routes of all three in creation order, the catch-all last', () => {
    const dump = cliJson<Json>(['translate', ...cfg, '--proxy', gw, '--type', 'routes'], THREE_VS);
    const rc = dump.configs[0].dynamic_route_configs.map((r: Json) => r.route_config).find((r: Json) => r.name === 'http.8080');
    const vh = rc.virtual_hosts.find((v: Json) => v.name === `${WEB}:80`);
    expect(vh.routes.map((r: Json) => [r.match.prefix, r.metadata.filter_metadata.istio.config.split('/').pop()])).toEqual([
      ['/api', 'a-api'],
      ['/static', 'b-static'],
      ['/', 'c-catch-all'],
    ]);
  });

  it('gateway: GET /static (older b-static) reaches outbound|80||static…, not the newer catch-all', () => {
    const r = simGw('/static/app.css');
    expect(r.cluster).toBe('outbound|80||static.shop.svc.cluster.local');
    expect(r.source).toMatchObject({ kind: 'VirtualService', name: 'b-static' });
  });

  it('gateway: GET /api reaches api (a-api); any other path falls to the catch-all of c-catch-all', () => {
    expect(simGw('/api/v1').cluster).toBe('outbound|80||api.shop.svc.cluster.local');
    const other = simGw('/cart');
    expect(other.cluster).toBe(`outbound|80||${WEB}`);
    expect(other.source).toMatchObject({ name: 'c-catch-all' });
  });

  it('sidecar (gateway mesh): only the oldest VirtualService (a-api) owns the vhost; /api routes, /static matches nothing', () => {
    const api = simSidecar('/api/v1');
    expect(api.routeConfig).toBe('80');
    expect(api.virtualHost).toBe(`${WEB}:80`);
    expect(api.cluster).toBe('outbound|80||api.shop.svc.cluster.local');
    expect(api.source).toMatchObject({ name: 'a-api' });
    expect(simSidecar('/static/app.css').error).toBe('no route matched');
    expect(simSidecar('/cart').error).toBe('no route matched');
  });
});

// The golden meshes of server/translate/testdata/gateway-* simulated end to end (request → listener / chain /
// route config / vhost / cluster), expectations from the same rules as their case.json `checked` notes.
describe('HTTPS, TLS passthrough and TCP gateway servers through `meshscope simulate`', () => {
  const golden = (name: string) => ['--config', join(REPO_ROOT, 'server', 'translate', 'testdata', name, 'in.yaml'), '--config', INGRESS];
  const ids = new Map<string, string>();
  const sim = (name: string, ...args: string[]) => {
    const cfg = golden(name);
    let id = ids.get(name);
    if (id === undefined) ids.set(name, (id = routerId(cfg)));
    return cliJson<Json>(['simulate', ...cfg, '--proxy', id, '--mode', 'gateway', ...args]);
  };

  it('HTTPS terminated on 8443 (Service 443→8443): SNI chain → https.443.https-shop.shop-gateway.shop → web', () => {
    const r = sim('gateway-https', '--port', '8443', '--tls', 'tls', '--host', 'shop.example.com', '--path', '/api/items');
    expect(r.listener).toBe('0.0.0.0_8443');
    expect(r.routeConfig).toBe('https.443.https-shop.shop-gateway.shop');
    expect(r.virtualHost).toBe('shop.example.com:443');
    expect(r.cluster).toBe('outbound|8000||web.shop.svc.cluster.local');
  });

  it('plaintext on 8080 for an httpsRedirect server: "tls required, sending 301" (require_tls ALL)', () => {
    expect(sim('gateway-https', '--port', '8080', '--host', 'old.example.com', '--path', '/').error).toBe('tls required, sending 301');
  });

  it('TLS passthrough: SNI vault.secure.example.com on 8443 → tcp_proxy outbound|8200||vault.secure.svc.cluster.local', () => {
    const r = sim('gateway-passthrough', '--port', '8443', '--tls', 'tls', '--protocol', 'tcp', '--sni', 'vault.secure.example.com');
    expect(r.listener).toBe('0.0.0.0_8443');
    expect(r.cluster).toBe('outbound|8200||vault.secure.svc.cluster.local');
  });

  it('TCP 31400 (not a Service port, listened on as-is) → weighted v1 80 / v2 20', () => {
    const r = sim('gateway-tcp', '--port', '31400', '--protocol', 'tcp');
    expect(r.listener).toBe('0.0.0.0_31400');
    expect(r.weightedClusters).toEqual({
      'outbound|27017|v1|mongo.data.svc.cluster.local': 80,
      'outbound|27017|v2|mongo.data.svc.cluster.local': 20,
    });
  });
});
