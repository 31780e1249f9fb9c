// The ztunnel view of a small ambient mesh (testdata/ambient.yaml), rule by rule against istiod
// pilot/pkg/serviceregistry/ambient: workloads.go podWorkloadBuilder / constructServices / setTunnelProtocol /
// buildWorkloadPolicies, helpers.go generatePodUID, services.go constructService, policies.go DefaultPolicy,
// authorization.go convertedSelectorPeerAuthentications.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optionsOf } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { loadPaths } from '../../sources/file/loadPaths';
import { canonicalService, podUid } from './workloads';
import { buildZtunnelView } from './index';
import { base64, fromBase64, ipBytes, ipText } from './ip';

const MESH = fileURLToPath(new URL('./testdata/ambient.yaml', import.meta.url));
const inputs = loadPaths([MESH]).inputs;
const ambient = buildSnapshot(inputs, { version: 1, ambient: true });
const view = buildZtunnelView(ambient, optionsOf(ambient));
const wl = (name: string) => view.workloads.find((w) => w['name'] === name)!;
const svc = (name: string) => view.services.find((s) => s['name'] === name)!;

describe('without the ambient profile', () => {
  it('istiod has no ambient index and sends ztunnel nothing', () => {
    const plain = buildSnapshot(inputs, { version: 1 });
    expect(buildZtunnelView(plain, optionsOf(plain))).toEqual({ workloads: [], services: [], policies: [], errors: [] });
  });
});

describe('workloads (podWorkloadBuilder)', () => {
  it('every pod with an IP, named by generatePodUID', () => {
    expect(podUid('Kubernetes', { namespace: 'shop', name: 'a' })).toBe('Kubernetes//Pod/shop/a');
    expect(view.workloads.map((w) => w.uid)).toEqual([
      'Kubernetes//Pod/legacy/legacy-app',
      'Kubernetes//Pod/shop/productpage-v1-7d4f8-abcde',
      'Kubernetes//Pod/shop/reviews-v1-6c8d9-fghij',
      'Kubernetes//Pod/shop/reviews-v2-9f1e2-klmno',
      'Kubernetes//Pod/shop/waypoint-5b7c9-xk2pq',
    ]);
  });
  it('setTunnelProtocol: HBONE only for pods istio-cni redirected', () => {
    expect(wl('productpage-v1-7d4f8-abcde')['tunnelProtocol']).toBe('HBONE');
    expect(wl('legacy-app')['tunnelProtocol']).toBeUndefined();
  });
  it('an unready pod is UNHEALTHY; a ready one carries the HEALTHY default (left out)', () => {
    expect(wl('reviews-v2-9f1e2-klmno')['status']).toBe('UNHEALTHY');
    expect(wl('reviews-v1-6c8d9-fghij')['status']).toBeUndefined();
  });
  it('constructServices: a named targetPort resolves to the pod container port; a pod without it leaves the port out', () => {
    expect(wl('reviews-v1-6c8d9-fghij')['services']).toEqual({
      'shop/reviews.shop.svc.cluster.local': { ports: [{ servicePort: 9080, targetPort: 9081 }] },
    });
    expect(wl('reviews-v2-9f1e2-klmno')['services']).toEqual({ 'shop/reviews.shop.svc.cluster.local': {} });
  });
  it('buildWorkloadPolicies: selector policies of its namespace, sorted, then the static STRICT policy (mesh-wide STRICT PeerAuthentication)', () => {
    expect(wl('reviews-v1-6c8d9-fghij')['authorizationPolicies']).toEqual([
      'shop/reviews-viewer',
      'istio-system/istio_converted_static_strict',
    ]);
    expect(wl('productpage-v1-7d4f8-abcde')['authorizationPolicies']).toEqual(['istio-system/istio_converted_static_strict']);
  });
  it('workload name from the ReplicaSet pod-template-hash, canonical name/revision from app/version (CanonicalService)', () => {
    expect(wl('productpage-v1-7d4f8-abcde')['workloadName']).toBe('productpage-v1');
    expect(wl('productpage-v1-7d4f8-abcde')['canonicalName']).toBe('productpage');
    expect(wl('productpage-v1-7d4f8-abcde')['canonicalRevision']).toBe('v1');
    expect(canonicalService({}, 'w')).toEqual(['w', 'latest']);
    expect(canonicalService({ 'service.istio.io/canonical-name': 'c', app: 'a' }, 'w')).toEqual(['c', 'latest']);
  });
  it('the default trust domain is not sent (pickTrustDomain)', () => {
    expect(wl('legacy-app')['trustDomain']).toBeUndefined();
  });
});

describe('services (constructService)', () => {
  it('cluster IPs, ports with app protocol, canonical, and the waypoint a use-waypoint label binds', () => {
    expect(svc('reviews')).toEqual({
      name: 'reviews',
      namespace: 'shop',
      hostname: 'reviews.shop.svc.cluster.local',
      addresses: [{ address: base64(ipBytes('10.96.1.11')!) }],
      // A named targetPort is 0 on the Service (TargetPort.IntVal), omitted in proto3 JSON.
      ports: [{ servicePort: 9080, appProtocol: 'HTTP11' }],
      waypoint: { hostname: { namespace: 'shop', hostname: 'waypoint.shop.svc.cluster.local' }, hboneMtlsPort: 15008 },
      canonical: true,
    });
    expect(svc('productpage')['waypoint']).toBeUndefined();
  });
});

describe('policies (PolicyCollections)', () => {
  it('converted AuthorizationPolicies (targetRef ones left to the waypoint) plus the static STRICT policy when any PeerAuthentication exists', () => {
    expect(view.policies.map((p) => `${p.namespace}/${p.name}`)).toEqual([
      'istio-system/allow-nothing-global',
      'istio-system/istio_converted_static_strict',
      'shop/deny-paths',
      'shop/reviews-viewer',
    ]);
    expect(view.errors.map((e) => e.object)).toEqual(['AuthorizationPolicy shop/deny-paths']);
  });
});

describe('ip bytes', () => {
  it('round-trips IPv4 and IPv6 text (RFC 5952 form)', () => {
    for (const ip of ['10.0.0.1', '::1', '2001:db8::1', 'fe80::1:0:0:1', '::a00:1'])
      expect(ipText(fromBase64(base64(ipBytes(ip)!))!)).toBe(ip);
    expect(ipBytes('10.0.0.256')).toBeUndefined();
    expect(ipBytes('1::2::3')).toBeUndefined();
  });
});
