// simulate from a sidecar and from a gateway under the ambient profile walks through HBONE endpoints: the cluster's
// endpoints are connect_originate internal addresses (endpoint_builder.go buildEnvoyLbEndpoint), each noted with where
// the tunnel goes — the pod's 15008 with CONNECT pod:port, or, from a gateway with istio.io/ingress-use-waypoint,
// the waypoint's 15008 with CONNECT VIP:port (pilot/pkg/xds/waypoint_test.go TestIngressUseWaypoint).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { parseText } from '../sources/file/parseFile';
import { ambientBookinfoInputs, labelService } from '../translate/xds/waypoint/testing';
import { simulateProxy } from './simulateProxy';

const EXTRA = [
  join(import.meta.dirname, '../translate/xds/waypoint/testdata/sleep-sidecar.yaml'),
  join(import.meta.dirname, '../translate/xds/hbone/testdata/hbone-clients.yaml'),
];
const INGRESS = 'istio-ingressgateway-7d4f8b9c5-abcde.istio-system';
const GATEWAY = parseText(
  `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: bookinfo}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 8080, name: http, protocol: HTTP}, hosts: ["*"]}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews-in, namespace: bookinfo}
spec:
  hosts: ["*"]
  gateways: [gw]
  http: [{route: [{destination: {host: reviews, port: {number: 9080}}}]}]
`,
  'gw.yaml',
).inputs;
const snap = (ingressUseWaypoint: boolean) => {
  let i = [...ambientBookinfoInputs({ extra: EXTRA }), ...GATEWAY];
  if (ingressUseWaypoint) i = labelService(i, 'bookinfo', 'reviews', { 'istio.io/ingress-use-waypoint': 'true' });
  return buildSnapshot(i, { version: 1, ambient: true });
};

describe('simulate through HBONE endpoints', () => {
  const s = snap(false);
  const reviewsIps = s.pods.filter((p) => p.labels['app'] === 'reviews').map((p) => p.ip!);

  it('from a sidecar: the reviews pods over HBONE, and the waypoint bypass explained', () => {
    const r = simulateProxy(s, 'sleep.bookinfo', { mode: 'outbound', host: 'reviews:9080', port: 9080, path: '/' })!;
    expect(r.error).toBeUndefined();
    // route-reviews-90-10 (a GAMMA HTTPRoute) applies to the sidecar: reviews-v1 / reviews-v2, their pods over HBONE
    const eps = r.endpoints ?? [];
    expect(eps.length).toBeGreaterThan(0);
    for (const e of eps) {
      const ip = e.replace('envoy://connect_originate/', '').replace(/:9080$/, '');
      expect(reviewsIps).toContain(ip);
      expect(r.notes).toContain(`${e}: HBONE to ${ip}:15008, CONNECT ${ip}:9080`);
    }
    expect(r.ambient?.waypoint.reason).toBe('SidecarCaller');
  });

  it('from a gateway: the pods without istio.io/ingress-use-waypoint, the waypoint with it', () => {
    const req = { mode: 'gateway' as const, host: 'bookinfo.example', port: 8080, path: '/' };
    const direct = simulateProxy(s, INGRESS, req)!;
    expect(direct.error).toBeUndefined();
    expect([...(direct.endpoints ?? [])].sort()).toEqual(reviewsIps.map((ip) => `envoy://connect_originate/${ip}:9080`).sort());
    const via = snap(true);
    const vip = via.servicesByHost.get('reviews.bookinfo.svc.cluster.local')![0]!.address;
    const r = simulateProxy(via, INGRESS, req)!;
    expect(r.endpoints).toEqual(['envoy://connect_originate/10.244.9.10:15008']);
    expect(r.notes).toContain(
      `envoy://connect_originate/10.244.9.10:15008: HBONE to the waypoint 10.244.9.10:15008, CONNECT ${vip}:9080 (the Service behind the waypoint)`,
    );
  });
});
