import { describe, expect, it } from 'vitest';
import { makeNode } from './testing/adsTestClient';
import { parseNode } from './node';

// istiod pilot/pkg/model/context.go ParseServiceNodeWithMetadata: TYPE~IP~ID~DOMAIN, metadata NAMESPACE,
// LABELS, CLUSTER_ID, INSTANCE_IPS; GENERATOR=grpc selects istiod's grpc generator (proxyless).
describe('parseNode', () => {
  it('Istio sidecar id with metadata', () => {
    const n = makeNode({
      id: 'sidecar~10.1.2.3~reviews-v1-5b4c.default~default.svc.cluster.local',
      metadata: { NAMESPACE: 'default', LABELS: { app: 'reviews', version: 'v1' }, CLUSTER_ID: 'Kubernetes', ISTIO_VERSION: '1.24.0' },
    });
    const c = parseNode(n, 'ipv4:127.0.0.1:5555');
    expect(c).toMatchObject({
      proxyId: 'reviews-v1-5b4c.default',
      nodeType: 'sidecar',
      ips: ['10.1.2.3'],
      namespace: 'default',
      labels: { app: 'reviews', version: 'v1' },
      clusterId: 'Kubernetes',
      flavour: 'envoy',
      peer: 'ipv4:127.0.0.1:5555',
    });
    expect(c.parseError).toBeUndefined();
  });

  it('router id; namespace from the id when metadata lacks it; INSTANCE_IPS override', () => {
    const c = parseNode(
      makeNode({
        id: 'router~10.0.0.9~istio-ingressgateway-7d.istio-system~istio-system.svc.cluster.local',
        metadata: { INSTANCE_IPS: '10.0.0.9,fd00::9' },
      }),
      'p',
    );
    expect(c.nodeType).toBe('router');
    expect(c.namespace).toBe('istio-system');
    expect(c.ips).toEqual(['10.0.0.9', 'fd00::9']);
  });

  it('GENERATOR=grpc → flavour grpc', () => {
    const c = parseNode(
      makeNode({ id: 'sidecar~127.0.0.1~client.default~default.svc.cluster.local', metadata: { GENERATOR: 'grpc' } }),
      'p',
    );
    expect(c.flavour).toBe('grpc');
    expect(c.generator).toBe('grpc');
  });

  it('a non-Istio id is served under its raw id, with a parse note (never throws)', () => {
    const c = parseNode(makeNode({ id: 'meshscope-probe~127.0.0.1~client-1' }), 'p');
    expect(c.proxyId).toBe('meshscope-probe~127.0.0.1~client-1');
    expect(c.parseError).toMatch(/3 parts/);
    expect(parseNode(undefined, 'p').proxyId).toBe('');
  });
});
