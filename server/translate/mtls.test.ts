// effectiveMtls: the per-port inbound mode with its PeerAuthentication, and each outbound cluster's client TLS
// (auto / DR / none), computed by the same code translation runs (policy_applier.go ComposePeerAuthentication,
// plugin/authn ForPassthrough, cluster_tls.go buildUpstreamTLSSettings).
import { describe, expect, it } from 'vitest';
import { effectiveMtls } from './mtls';
import { deployment, meshFromYaml, proxyWith } from './testing/yamlMesh';

const yaml = `${deployment('web', 'shop', { app: 'web' })}---
${deployment('db', 'shop', { app: 'db' })}---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: shop}
spec: {selector: {app: db}, ports: [{name: tcp, port: 5432, targetPort: 9080}]}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: default, namespace: istio-system}
spec: {mtls: {mode: STRICT}}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  portLevelMtls:
    8080: {mode: PERMISSIVE}
    7000: {mode: DISABLE}
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: db, namespace: shop}
spec:
  host: db.shop.svc.cluster.local
  trafficPolicy: {tls: {mode: DISABLE}}
`;

describe('effectiveMtls', () => {
  const snap = meshFromYaml(yaml);
  const r = effectiveMtls(snap, proxyWith(snap, 'shop', { app: 'web' }));

  it('inbound: passthrough (port 0) from the mesh policy, the port-level ports with the workload policy', () => {
    expect(r.proxy).toMatch(/^web-.*\.shop$/);
    expect(r.inbound).toEqual([
      {
        port: 0,
        mode: 'STRICT',
        services: [],
        source: {
          kind: 'PeerAuthentication',
          namespace: 'istio-system',
          name: 'default',
          scope: 'mesh',
          path: 'spec.mtls.mode',
          config: '/apis/security.istio.io/v1/namespaces/istio-system/peer-authentication/default',
        },
      },
      expect.objectContaining({
        port: 7000,
        mode: 'DISABLE',
        services: [],
        source: expect.objectContaining({ name: 'web', path: 'spec.portLevelMtls.7000.mode' }),
      }),
      expect.objectContaining({ port: 8080, mode: 'PERMISSIVE', services: ['web.shop.svc.cluster.local:80'] }),
    ]);
  });

  it('clusters: auto mTLS towards web, the DestinationRule turning it off towards db', () => {
    expect(r.clusters).toEqual([
      {
        cluster: 'outbound|5432||db.shop.svc.cluster.local',
        kind: 'DR',
        mode: 'DISABLE',
        destinationRule: { config: '/apis/networking.istio.io/v1/namespaces/shop/destination-rule/db', path: 'spec.trafficPolicy.tls' },
      },
      {
        cluster: 'outbound|80||web.shop.svc.cluster.local',
        kind: 'auto',
        mode: 'ISTIO_MUTUAL',
        sni: 'outbound_.80_._.web.shop.svc.cluster.local',
        subjectAltNames: ['spiffe://cluster.local/ns/shop/sa/default'],
      },
    ]);
  });
});
