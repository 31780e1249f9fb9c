// Fidelity against a real istiod output: ../shared/fixtures/envoy-config-dumps/gateway-routes-config_dump.json
// holds the ingress gateway's RDS `http.8080` for Istio's httpbin ingress task (Gateway server port 80, hosts
// httpbin.example.com; VirtualService prefix /get → httpbin:8000). Rebuilding those inputs must give the same
// RouteConfiguration, field for field, as Envoy printed it (resolvePorts 80 → 8080, vhost named with the server port).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { configDumpFixture } from '../../../testing/paths';
import { gatewayMesh } from './testing';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HTTPBIN = `
apiVersion: v1
kind: Service
metadata: { name: httpbin, namespace: default }
spec:
  selector: { app: httpbin }
  ports: [{ name: http, port: 8000, targetPort: 80 }]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: { name: httpbin-gateway, namespace: default }
spec:
  selector: { istio: ingressgateway }
  servers:
  - port: { number: 80, name: http, protocol: HTTP }
    hosts: [httpbin.example.com]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: httpbin, namespace: default }
spec:
  hosts: [httpbin.example.com]
  gateways: [httpbin-gateway]
  http:
  - match: [{ uri: { prefix: /get } }]
    route: [{ destination: { host: httpbin, port: { number: 8000 } } }]
`;

describe('gateway RDS vs a real istiod config dump', () => {
  it("http.8080 equals the dumped route_config of Istio's httpbin ingress task", () => {
    const dump = JSON.parse(readFileSync(configDumpFixture('gateway-routes-config_dump.json'), 'utf8')) as Json;
    const { '@type': _type, ...expected } = dump.configs[0].dynamic_route_configs.find(
      (r: Json) => r.route_config.name === 'http.8080',
    ).route_config;
    const m = gatewayMesh([HTTPBIN]);
    const rc = m.route('http.8080');
    expect(rc).toBeDefined();
    const actual = encodeResource(TYPE.route, 'http.8080', rc).json as Json;
    expect(actual).toEqual(expected);
  });
});
