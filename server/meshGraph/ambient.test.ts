// The overview's ambient view on the embedded demo mesh (examples/demo/50-ambient.yaml) under the ambient
// profile. Expectations follow istiod's ambient index: pods are enrolled by istio-cni's annotation
// (workloads.go setTunnelProtocol), a waypoint serves the Services whose waypoint address is its own
// (ambientindex.go ServicesForWaypoint, model.WaypointKeyForProxy), a Service without istio.io/use-waypoint has
// none (waypoints.go fetchWaypointForService), and ztunnel drops HTTP attributes of a selector policy
// (authorization.go convertAuthorizationPolicy).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { scopeAmbient, withAmbient } from './ambient';
import { buildMeshGraph } from './graph';
import { nodeId } from './ids';

const DEMO = `${REPO_ROOT}/examples/demo`;
const load = (ambient: boolean, extra?: string) => {
  const r = loadPaths(extra ? [DEMO, '-'] : [DEMO], extra ? { stdin: extra } : undefined);
  const snap = buildSnapshot(r.inputs, { version: 1, ...(ambient ? { ambient: true } : {}) });
  return { snap, graph: withAmbient(buildMeshGraph(snap, DEFAULT_OPTIONS), snap, DEFAULT_OPTIONS) };
};
const HOST = (name: string) => `svc:orders/${name}.orders.svc.cluster.local`;

describe('overview graph under the ambient profile (examples/demo)', () => {
  const { snap, graph } = load(true);
  const node = (id: string) => graph.nodes.find((n) => n.id === id);
  const badges = (id: string) => (node(id)?.badges ?? []).map((b) => b.kind);
  const waypointPod = snap.pods.find((p) => p.namespace === 'orders' && p.proxy === 'waypoint')!;

  it('marks the enrolled pods and their namespace ambient, and no sidecar pod', () => {
    const enrolled = snap.pods.filter((p) => p.annotations['ambient.istio.io/redirection'] === 'enabled');
    expect(enrolled.length).toBeGreaterThan(0);
    for (const p of enrolled) expect(badges(nodeId.pod(p.namespace, p.name))).toContain('ambient');
    expect(badges(nodeId.namespace('orders'))).toContain('ambient');
    for (const ns of ['shop', 'catalog', 'istio-system']) expect(badges(nodeId.namespace(ns))).not.toContain('ambient');
    for (const p of snap.proxies.filter((x) => x.type === 'sidecar')) expect(badges(nodeId.proxy(p.id))).not.toContain('ambient');
    expect(graph.ambient?.namespaces).toEqual(['orders']);
    expect(graph.ambient?.pods.sort()).toEqual(enrolled.map((p) => `${p.namespace}/${p.name}`).sort());
  });

  it('draws the waypoint and an edge to the Service bound to it only (ServicesForWaypoint)', () => {
    const wp = nodeId.proxy(`${waypointPod.name}.orders`);
    expect(badges(wp)).toContain('waypoint');
    const edges = graph.edges.filter((e) => e.kind === 'waypoint');
    // orders has istio.io/use-waypoint; orders-v1/-v2, payments and checkout have none; the waypoint's own Service is skipped.
    expect(edges.map((e) => [e.source, e.target])).toEqual([[wp, HOST('orders')]]);
    expect(badges(HOST('orders'))).toContain('waypoint');
    // Its routes are those of the Services bound to it (listener_waypoint.go): none to catalog's products / ratings.
    const fromWaypoint = graph.edges.filter((e) => e.source === wp && e.kind !== 'waypoint');
    expect(fromWaypoint.length).toBeGreaterThan(0);
    expect(fromWaypoint.map((e) => [e.virtualService, e.target, e.percent])).toEqual([
      ['orders/orders~8080~orders.orders.svc.cluster.local', HOST('orders-v1'), 90],
      ['orders/orders~8080~orders.orders.svc.cluster.local', HOST('orders-v2'), 10],
    ]);
    expect(graph.counts.routeEdges).toBe(graph.edges.filter((e) => e.kind === 'route').length);
    expect(graph.ambient?.waypoints).toEqual([
      {
        key: 'orders/waypoint',
        address: 'orders/waypoint.orders.svc.cluster.local',
        trafficType: 'service',
        proxies: [`${waypointPod.name}.orders`],
        services: ['orders/orders.orders.svc.cluster.local'],
        workloads: [],
      },
    ]);
  });

  it('badges L7 config on an ambient Service without a waypoint, with the binding reason', () => {
    expect(badges(HOST('payments'))).toContain('no-waypoint');
    // orders' HTTPRoute runs on its waypoint: no badge.
    expect(badges(HOST('orders'))).not.toContain('no-waypoint');
    // Sidecar Services with VirtualServices (catalog) are not ambient: no badge.
    expect(graph.nodes.filter((n) => n.namespace !== 'orders' && n.badges.some((b) => b.kind === 'no-waypoint'))).toEqual([]);
    expect(graph.ambient?.skipped).toEqual([
      {
        kind: 'VirtualService',
        object: 'orders/payments',
        target: HOST('payments'),
        reason: 'NoUseWaypoint',
        message: expect.stringContaining('no istio.io/use-waypoint label on Service orders/payments or on namespace orders'),
      },
    ]);
  });

  it('a selector AuthorizationPolicy with HTTP attributes on enrolled pods is badged on them; targetRefs to an unbound Service too', () => {
    const extra = `
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: { name: payments-paths, namespace: orders }
spec:
  selector: { matchLabels: { app: payments } }
  rules: [{ to: [{ operation: { paths: ["/pay"] } }] }]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: { name: checkout-l7, namespace: orders }
spec:
  targetRefs: [{ kind: Service, group: "", name: checkout }]
  rules: [{ to: [{ operation: { methods: ["GET"] } }] }]
`;
    const { snap: s2, graph: g2 } = load(true, extra);
    const pay = s2.pods.find((p) => p.labels.app === 'payments')!;
    const skipped = g2.ambient?.skipped ?? [];
    expect(skipped.find((x) => x.object === 'orders/payments-paths')).toMatchObject({
      kind: 'AuthorizationPolicy',
      target: nodeId.pod('orders', pay.name),
      reason: 'HTTPAttributes',
      message: expect.stringContaining('ztunnel does not support HTTP attributes (found: paths)'),
    });
    expect(skipped.find((x) => x.object === 'orders/checkout-l7')).toMatchObject({ target: HOST('checkout'), reason: 'NoUseWaypoint' });
    expect(g2.nodes.find((n) => n.id === nodeId.pod('orders', pay.name))?.badges.map((b) => b.kind)).toEqual(['ambient', 'no-waypoint']);
  });

  it('a viewer of other namespaces sees none of it', () => {
    const scoped = scopeAmbient(graph.ambient!, (ns) => ns === 'shop');
    expect(scoped).toEqual({ namespaces: [], pods: [], waypoints: [], pending: [], skipped: [] });
  });
});

describe('overview graph without the ambient profile', () => {
  it('adds nothing: istiod has no ambient index', () => {
    const { snap, graph } = load(false);
    expect(graph).toEqual(buildMeshGraph(snap, DEFAULT_OPTIONS));
    expect(graph.ambient).toBeUndefined();
  });
});
