// Proxy identity against istiod's rules: pilot/pkg/model/context.go ParseServiceNodeWithMetadata (node id
// TYPE~IP~ID~DOMAIN, ID = POD.NAMESPACE; NAMESPACE metadata wins; INSTANCE_IPS lists the proxy's IPs;
// IsApplicationNodeType: sidecar/router/waypoint/ztunnel) and DESIGN.md §3 (proxy id POD.NS, else by IP).
import { describe, expect, it } from 'vitest';
import type { MeshSnapshot, ProxyModel } from './mesh';
import { parseNodeId, proxyForNode, proxyFromNode, proxyIdOf } from './proxyIdentity';

describe('parseNodeId (ParseServiceNodeWithMetadata)', () => {
  const cases: [string, string, Record<string, unknown>, ReturnType<typeof parseNodeId>][] = [
    [
      'sidecar id: POD.NS, IP, namespace from the id',
      'sidecar~10.1.0.7~cart-7f9.shop~shop.svc.cluster.local',
      {},
      { type: 'sidecar', proxyId: 'cart-7f9.shop', ips: ['10.1.0.7'], namespace: 'shop' },
    ],
    [
      'NAMESPACE metadata wins over the id',
      'sidecar~10.1.0.7~cart-7f9.shop~shop.svc.cluster.local',
      { NAMESPACE: 'billing' },
      { type: 'sidecar', proxyId: 'cart-7f9.shop', ips: ['10.1.0.7'], namespace: 'billing' },
    ],
    [
      'no dot in the id: namespace from the domain',
      'router~10.0.0.2~gw~edge.svc.cluster.local',
      {},
      { type: 'router', proxyId: 'gw', ips: ['10.0.0.2'], namespace: 'edge' },
    ],
    [
      'INSTANCE_IPS replaces the id IP (comma-separated, trimmed)',
      'sidecar~10.1.0.7~a.ns~ns.svc.cluster.local',
      { INSTANCE_IPS: '10.1.0.7, fd00::7' },
      { type: 'sidecar', proxyId: 'a.ns', ips: ['10.1.0.7', 'fd00::7'], namespace: 'ns' },
    ],
    [
      'unknown node type: parsed, with a note',
      'gateway~10.0.0.1~a.ns~ns.svc.cluster.local',
      {},
      {
        type: 'gateway',
        proxyId: 'a.ns',
        ips: ['10.0.0.1'],
        namespace: 'ns',
        error: 'node id "gateway~10.0.0.1~a.ns~ns.svc.cluster.local": unknown node type "gateway"',
      },
    ],
    [
      'not four parts: the raw id, namespace only from metadata',
      'probe-1',
      { NAMESPACE: 'ops' },
      { proxyId: 'probe-1', ips: [], namespace: 'ops', error: 'node id "probe-1" is not TYPE~IP~POD.NAMESPACE~DOMAIN (1 parts)' },
    ],
  ];
  for (const [name, id, meta, want] of cases) it(name, () => expect(parseNodeId(id, meta)).toEqual(want));
});

const proxy = (name: string, ns: string, ip: string): ProxyModel => ({
  id: proxyIdOf(name, ns),
  type: 'sidecar',
  name,
  namespace: ns,
  labels: {},
  ips: [ip],
  locality: { region: '', zone: '', subzone: '' },
});

describe('proxyForNode (istiod getPodByProxy / podKeyByProxy)', () => {
  const a = proxy('a', 'ns', '10.0.0.1');
  const b = proxy('b', 'ns', '10.0.0.2');
  const snap = { proxies: [a, b], proxiesById: new Map([a, b].map((p) => [p.id, p])) } as unknown as MeshSnapshot;
  it('by POD.NS; by IP only with ENABLE_PROXY_FIND_POD_BY_IP, and then by the first IP only', () => {
    expect(proxyForNode(snap, { proxyId: 'b.ns', ips: ['10.0.0.1'] })).toBe(b);
    expect(proxyForNode(snap, { proxyId: 'gone.ns', ips: ['10.0.0.1'] })).toBeUndefined();
    expect(proxyForNode(snap, { proxyId: 'gone.ns', ips: ['10.0.0.1'] }, { findPodByIp: true })).toBe(a);
    expect(proxyForNode(snap, { proxyId: 'gone.ns', ips: ['192.0.2.1', '10.0.0.1'] }, { findPodByIp: true })).toBeUndefined();
    expect(proxyForNode(snap, { proxyId: 'gone.ns', ips: [] }, { findPodByIp: true })).toBeUndefined();
  });
});

describe('proxyFromNode', () => {
  it('models an unknown node from its id and metadata; needs a namespace', () => {
    const node = {
      proxyId: 'edge-1.gw',
      ips: ['10.9.0.1'],
      nodeType: 'router',
      namespace: 'gw',
      labels: { istio: 'ingressgateway' },
      metadata: { CLUSTER_ID: 'Kubernetes', LABELS: { istio: 'ingressgateway' } },
    };
    // The same shape a registry pod's proxy has (id POD.NS, name POD), from the node alone.
    const want = { ...proxy('edge-1', 'gw', '10.9.0.1'), type: 'router', labels: { istio: 'ingressgateway' } };
    expect(proxyFromNode(node)).toEqual({ ...want, metadata: { CLUSTER_ID: 'Kubernetes' } });
    expect(proxyFromNode({ ...node, namespace: undefined })).toBeUndefined();
  });
});

describe('proxyType: gateway pods of the Gateway API', () => {
  it('a pod of istiod gateway deployment controller (gateway.istio.io/managed label, kube-gateway.yaml) is a router even without the router arg', async () => {
    const { proxyType } = await import('./proxyIdentity');
    const meta = {
      labels: { 'gateway.istio.io/managed': 'istio.io-gateway-controller', 'sidecar.istio.io/inject': 'false' },
      annotations: {},
      namespace: 'default',
    };
    expect(proxyType(meta, { containers: [{ name: 'istio-proxy' }] }, new Map(), false)).toBe('router');
    // Without the label, inject=false and no istio-proxy container: no proxy.
    expect(
      proxyType({ ...meta, labels: { 'sidecar.istio.io/inject': 'false' } }, { containers: [{ name: 'app' }] }, new Map(), false),
    ).toBe('none');
  });
});
