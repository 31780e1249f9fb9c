// Gateway RDS through translateProxy on a parsed mesh (Istio's ingress gateway + YAML), expectations from
// networking/core/gateway.go:buildGatewayHTTPRouteConfig, model/gateway.go:mergeGateways/resolvePorts,
// push_context.go:VirtualServicesForGateway, route.go:SortVHostRoutes (istio-translation.md §6).
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { backend, gatewayMesh } from './testing';

const gw = (name: string, ns: string, servers: string, selector = '{ istio: ingressgateway }', created = '2024-01-01T00:00:00Z') => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: { name: ${name}, namespace: ${ns}, creationTimestamp: "${created}" }
spec:
  selector: ${selector}
  servers:
${servers}`;
const http80 = (hosts: string) => `  - port: { number: 80, name: http, protocol: HTTP }\n    hosts: ${hosts}\n`;
const vs = (name: string, ns: string, hosts: string, gateways: string, http: string, created = '2024-01-01T00:00:00Z') => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: ${name}, namespace: ${ns}, creationTimestamp: "${created}" }
spec:
  hosts: ${hosts}
  gateways: ${gateways}
  http:
${http}`;
const prefixTo = (prefix: string, host: string) =>
  `  - match: [{ uri: { prefix: ${prefix} } }]\n    route: [{ destination: { host: ${host} } }]\n`;
const toOnly = (host: string) => `  - route: [{ destination: { host: ${host} } }]\n`;

const SHOP = 'web.shop.svc.cluster.local';

describe('gateway HTTP route configs', () => {
  it('resolvePorts: server port 80 (= ingress Service port 80 → targetPort 8080) is listened on 8080: RDS http.8080, vhost named with the server port', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["shop.example.com"]')),
      vs('web', 'shop', '[shop.example.com]', '[gw]', toOnly('web')),
    ]);
    expect(m.table.listeners.map((l) => l.name)).toEqual(['0.0.0.0_8080']);
    const rc = m.route('http.8080');
    expect(rc?.virtualHosts?.map((v) => [v.name, v.domains])).toEqual([['shop.example.com:80', ['shop.example.com']]]);
    expect(rc?.ignorePortInHostMatching).toBe(true);
    expect(rc?.virtualHosts?.[0]?.includeRequestAttemptCount).toBe(true);
    // destination port defaults to the service's only port (route.go GetDestinationCluster)
    expect(rc?.virtualHosts?.[0]?.routes?.[0]?.route?.cluster).toBe(`outbound|80||${SHOP}`);
  });

  it('blackhole:<server port> with domain * and no routes when no VirtualService binds (buildGatewayHTTPRouteConfig)', () => {
    const m = gatewayMesh([gw('gw', 'shop', http80('["*"]'))]);
    expect(m.route('http.8080')?.virtualHosts).toEqual([{ name: 'blackhole:80', domains: ['*'], routes: [] }]);
  });

  it('Gateway selection: selector must be a subset of the pod labels; no selector selects every gateway pod; any namespace', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('egress', 'shop', `  - port: { number: 9000, name: http, protocol: HTTP }\n    hosts: ["*"]\n`, '{ istio: egressgateway }'),
      gw('all', 'other', `  - port: { number: 9001, name: http, protocol: HTTP }\n    hosts: ["*"]\n`, '{}'),
      gw('mine', 'shop', http80('["*"]'), '{ app: istio-ingressgateway, istio: ingressgateway }'),
    ]);
    expect(m.table.listeners.map((l) => l.name).sort()).toEqual(['0.0.0.0_8080', '0.0.0.0_9001']);
  });

  it('VirtualService binding: `name`, `./name` and `ns/name` name the gateway; another gateway name does not bind', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["*"]')),
      vs('short', 'shop', '[a.example.com]', '[gw]', toOnly('web')),
      vs('dot', 'shop', '[b.example.com]', '["./gw"]', toOnly('web')),
      vs('full', 'other', '[c.example.com]', '["shop/gw"]', toOnly(SHOP)),
      vs('wrong', 'other', '[d.example.com]', '[gw]', toOnly(SHOP)),
      vs('mesh', 'shop', '[e.example.com]', '[mesh]', toOnly('web')),
    ]);
    const domains = m.route('http.8080')?.virtualHosts?.flatMap((v) => v.domains ?? []);
    expect(domains?.sort()).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
  });

  it('namespace-scoped server hosts admit only VirtualServices of that namespace (host.NamesForNamespace)', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["shop/*.example.com", "./own.example.com"]')),
      vs('in-shop', 'shop', '[a.example.com, own.example.com]', '["shop/gw"]', prefixTo('/a', 'web')),
      vs('elsewhere', 'other', '[b.example.com, own.example.com]', '["shop/gw"]', prefixTo('/b', SHOP)),
    ]);
    const vh = m.route('http.8080')?.virtualHosts ?? [];
    // both hosts carry the same routes of in-shop: collapsed into the longer (more specific) name
    expect(vh.map((v) => [v.name, v.domains])).toEqual([['own.example.com:80', ['own.example.com', 'a.example.com']]]);
    expect(vh.flatMap((v) => v.routes?.map((r) => r.match?.prefix))).toEqual(['/a']);
  });

  it('host intersection keeps the more specific name: server *.example.com × VS a.example.com → vhost a.example.com:80', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["*.example.com"]')),
      vs('v', 'shop', '[a.example.com, b.other.org]', '[gw]', toOnly('web')),
    ]);
    expect(m.route('http.8080')?.virtualHosts?.map((v) => v.name)).toEqual(['a.example.com:80']);
  });

  it('host merging across VirtualServices: routes appended in import (creation) order, catch-alls moved last (SortVHostRoutes)', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      backend('api', 'shop'),
      gw('gw', 'shop', http80('["*"]')),
      vs('third', 'shop', '[shop.example.com]', '[gw]', toOnly('web'), '2024-01-03T00:00:00Z'),
      vs('first', 'shop', '[shop.example.com]', '[gw]', prefixTo('/api', 'api'), '2024-01-01T00:00:00Z'),
      vs('second', 'shop', '[shop.example.com]', '[gw]', prefixTo('/static', 'web'), '2024-01-02T00:00:00Z'),
    ]);
    const vh = m.route('http.8080')?.virtualHosts ?? [];
    expect(vh).toHaveLength(1);
    expect(vh[0]?.routes?.map((r) => [r.match?.prefix, r.metadata?.filterMetadata?.istio])).toEqual([
      ['/api', { config: '/apis/networking.istio.io/v1/namespaces/shop/virtual-service/first' }],
      ['/static', { config: '/apis/networking.istio.io/v1/namespaces/shop/virtual-service/second' }],
      ['/', { config: '/apis/networking.istio.io/v1/namespaces/shop/virtual-service/third' }],
    ]);
  });

  it("SortVHostRoutes: an older VirtualService's catch-all moves behind a newer one's specific route on the merged vhost", () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      backend('api', 'shop'),
      gw('gw', 'shop', http80('["*"]')),
      vs('old-catch-all', 'shop', '[shop.example.com]', '[gw]', toOnly('web'), '2024-01-01T00:00:00Z'),
      vs('new-api', 'shop', '[shop.example.com]', '[gw]', prefixTo('/api', 'api'), '2024-01-02T00:00:00Z'),
    ]);
    const routes = m.route('http.8080')?.virtualHosts?.[0]?.routes ?? [];
    expect(routes.map((r) => [r.match?.prefix, r.route?.cluster])).toEqual([
      ['/api', 'outbound|80||api.shop.svc.cluster.local'],
      ['/', `outbound|80||${SHOP}`],
    ]);
  });

  it('identical vhosts collapse into the most specific host with concatenated domains (collapseDuplicateRoutes)', () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["*"]')),
      vs('v', 'shop', '["*.other.org", b.example.com, aa.example.com]', '[gw]', toOnly('web')),
    ]);
    expect(m.route('http.8080')?.virtualHosts?.map((v) => [v.name, v.domains])).toEqual([
      ['aa.example.com:80', ['aa.example.com', 'b.example.com', '*.other.org']],
    ]);
  });

  it("two Gateways with HTTP servers on one port share http.<port>; each VirtualService only reaches its own gateway's server hosts", () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('one', 'shop', http80('["one.example.com"]'), undefined, '2024-01-01T00:00:00Z'),
      gw('two', 'shop', http80('["two.example.com"]'), undefined, '2024-01-02T00:00:00Z'),
      vs('v1', 'shop', '["*"]', '[one]', toOnly('web')),
      vs('v2', 'shop', '["*"]', '[two]', prefixTo('/two', 'web')),
    ]);
    expect(m.table.routes.map((r) => r.name)).toEqual(['http.8080']);
    expect(m.route('http.8080')?.virtualHosts?.map((v) => [v.name, v.routes?.[0]?.match?.prefix])).toEqual([
      ['one.example.com:80', '/'],
      ['two.example.com:80', '/two'],
    ]);
  });

  it('match.port filters on the server port, match.gateways on `ns/name` (TranslateRoute with gateway names)', () => {
    const http = `  - match: [{ port: 80, uri: { prefix: /p80 } }, { port: 8080, uri: { prefix: /p8080 } }, { gateways: [other], uri: { prefix: /other } }, { gateways: [gw], uri: { prefix: /mine } }]
    route: [{ destination: { host: web } }]
`;
    const m = gatewayMesh([backend('web', 'shop'), gw('gw', 'shop', http80('["*"]')), vs('v', 'shop', '["*"]', '[gw]', http)]);
    expect(m.route('http.8080')?.virtualHosts?.[0]?.routes?.map((r) => r.match?.prefix)).toEqual(['/p80', '/mine']);
  });

  it('every produced listener and route config encodes', () => {
    const m = gatewayMesh([backend('web', 'shop'), gw('gw', 'shop', http80('["*"]')), vs('v', 'shop', '["*"]', '[gw]', toOnly('web'))]);
    for (const l of m.table.listeners) expect(() => encodeResource(TYPE.listener, l.name ?? '', l)).not.toThrow();
    for (const r of m.table.routes) expect(() => encodeResource(TYPE.route, r.name ?? '', r)).not.toThrow();
    expect(m.table.errors.filter((e) => e.severity === 'error')).toEqual([]);
  });

  it("a root VirtualService bound to the gateway gets its delegate's routes (VirtualServicesForGateway merges delegates)", () => {
    const m = gatewayMesh([
      backend('web', 'shop'),
      gw('gw', 'shop', http80('["*"]')),
      vs(
        'root',
        'shop',
        '[shop.example.com]',
        '[gw]',
        `  - match: [{ uri: { prefix: /shop } }]\n    delegate: { name: leaf, namespace: shop }\n`,
      ),
      `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: { name: leaf, namespace: shop }\nspec:\n  http:\n  - match: [{ uri: { prefix: /shop/cart } }]\n    route: [{ destination: { host: web } }]\n`,
    ]);
    const routes = m.route('http.8080')?.virtualHosts?.[0]?.routes ?? [];
    expect(routes.map((r) => [r.match?.prefix, r.route?.cluster])).toEqual([['/shop/cart', `outbound|80||${SHOP}`]]);
  });
});
