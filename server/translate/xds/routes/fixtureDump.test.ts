// Field-by-field comparison with a route istiod generated: the gateway route of the real Envoy
// config dump in ../shared/fixtures/envoy-config-dumps/gateway-routes-config_dump.json
// (VirtualService default/httpbin: match prefix /get → httpbin:8000, served on gateway port 80).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHttpRoutesForVirtualService } from './httpRoutes';
import { configDumpFixture } from '../../../testing/paths';
import { encodeRoute, service, virtualService } from './testing';

type Json = Record<string, unknown>;

function dumpRoute(): Json {
  const dump = JSON.parse(readFileSync(configDumpFixture('gateway-routes-config_dump.json'), 'utf8')) as {
    configs: { dynamic_route_configs?: { route_config: { virtual_hosts: { routes: Json[] }[] } }[] }[];
  };
  const route = dump.configs[0]?.dynamic_route_configs?.[0]?.route_config.virtual_hosts[0]?.routes[0];
  if (!route) throw new Error('fixture route missing');
  return route;
}

describe('istiod fixture: gateway route for httpbin', () => {
  it('matches the dumped route field by field (route.go TranslateRoute on a gateway, listen port = server port 80)', () => {
    const httpbin = service('httpbin', 'default', [[8000]]);
    const vs = virtualService('httpbin', 'default', {
      hosts: ['httpbin.example.com'],
      gateways: ['httpbin-gateway'],
      http: [
        {
          match: [{ uri: { prefix: '/get' } }],
          route: [{ destination: { host: 'httpbin.default.svc.cluster.local', port: { number: 8000 } } }],
        },
      ],
    });
    const { routes, errors } = buildHttpRoutesForVirtualService(vs, {
      listenerPort: 80,
      gatewayNames: new Set(['default/httpbin-gateway']),
      proxyLabels: { istio: 'ingressgateway' },
      proxyNamespace: 'istio-system',
      serviceLookup: (h) => (h === httpbin.hostname ? httpbin : undefined),
      isGateway: true,
    });
    expect(errors).toEqual([]);
    const encoded = encodeRoute({
      name: 'http.8080',
      virtualHosts: [{ name: 'httpbin.example.com:80', domains: ['httpbin.example.com'], routes }],
    }) as {
      virtual_hosts: { routes: Json[] }[];
    };
    expect(encoded.virtual_hosts[0]?.routes[0]).toEqual(dumpRoute());
  });
});
