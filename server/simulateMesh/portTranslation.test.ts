// Istio's pilot/pkg/networking/core/gateway_simulation_test.go TestDisablePortTranslation: two ServiceEntries
// select the gateway pod (endpoint 1.1.1.1, istio: ingressgateway), both on port 80, with targetPorts 8081
// and 8080; the one labelled `experimental.istio.io/disable-gateway-port-translation` is skipped by
// resolvePorts (model/gateway.go, legacy label selection), so Gateway port 80 resolves to the other's 8080
// and Gateway port 8081 stays 8081 — in both orders of the ServiceEntries. Same inputs, same expected results
// (Istio's test mesh has an empty domain suffix, `outbound|80||a.default`; here it is cluster.local).
import { describe, expect, it } from 'vitest';
import { meshFromYaml, proxyWith } from '../translate/testing/yamlMesh';
import { simulateProxy } from './simulateProxy';

/** The simulation's gateway proxy: a router pod at 1.1.1.1 labelled istio: ingressgateway. */
const gatewayPod = `apiVersion: v1
kind: Pod
metadata: {name: istio-ingressgateway-0, namespace: istio-system, labels: {istio: ingressgateway}}
spec:
  containers: [{name: istio-proxy, image: istio/proxyv2, args: [proxy, router]}]
status: {podIP: 1.1.1.1}
`;

const gateway = (name: string, port: number) => `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: ${name}, namespace: default}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: ${port}, name: http, protocol: HTTP}
    hosts: ["example.com"]
`;

const serviceEntry = (name: string, host: string, targetPort: number, disable: boolean) => `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: ${name}
  namespace: istio-system${disable ? '\n  labels: {experimental.istio.io/disable-gateway-port-translation: "true"}' : ''}
spec:
  hosts: ["${host}"]
  ports: [{number: 80, targetPort: ${targetPort}, name: http, protocol: HTTP}]
  resolution: STATIC
  location: MESH_INTERNAL
  endpoints: [{address: 1.1.1.1, labels: {istio: ingressgateway}}]
`;

const virtualServices = ['a', 'b']
  .map(
    (n) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: ${n}, namespace: default}
spec:
  hosts: ["example.com"]
  gateways: [gateway80, gateway8081]
  http:
  - match: [{uri: {prefix: /}}]
    route: [{destination: {host: ${n}, port: {number: ${n === 'a' ? 80 : 8081}}}}]
`,
  )
  .join('---\n');

describe('TestDisablePortTranslation', () => {
  const cases: Array<[string, string[]]> = [
    [
      'multiple target port, target port first',
      [serviceEntry('service-instance', 'a.example.com', 8081, true), serviceEntry('service-instance-2', 'b.example.com', 8080, false)],
    ],
    [
      'multiple target port, service port first',
      [serviceEntry('service-instance', 'b.example.com', 8081, true), serviceEntry('service-instance-2', 'a.example.com', 8080, false)],
    ],
  ];
  for (const [name, entries] of cases)
    describe(name, () => {
      const mesh = meshFromYaml(
        [gatewayPod, gateway('gateway80', 80), gateway('gateway8081', 8081), ...entries, virtualServices].join('---\n'),
      );
      const gw = proxyWith(mesh, 'istio-system', { istio: 'ingressgateway' }).id;
      it('target port 1: port 8080 is Gateway port 80 translated (the labelled entry is skipped)', () => {
        const r = simulateProxy(mesh, gw, { mode: 'gateway', port: 8080, host: 'example.com', protocol: 'http' });
        expect(r).toMatchObject({
          listener: '0.0.0.0_8080',
          cluster: 'outbound|80||a.default.svc.cluster.local',
          routeConfig: 'http.8080',
          virtualHost: 'example.com:80',
        });
      });
      it('target port 2: port 8081 is Gateway port 8081 itself', () => {
        const r = simulateProxy(mesh, gw, { mode: 'gateway', port: 8081, host: 'example.com', protocol: 'http' });
        expect(r).toMatchObject({
          listener: '0.0.0.0_8081',
          cluster: 'outbound|80||a.default.svc.cluster.local',
          routeConfig: 'http.8081',
          virtualHost: 'example.com:8081',
        });
      });
    });
});
