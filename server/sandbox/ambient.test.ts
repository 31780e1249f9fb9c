// The sandbox on an ambient mesh: Istio's Bookinfo (../shared/fixtures) in namespace `bookinfo` enrolled in ambient
// with the waypoint `bookinfo/waypoint` and route-reviews-90-10 as a GAMMA HTTPRoute (translate/xds/waypoint/
// testing). Expectations follow istiod: a Service binds to the waypoint its `istio.io/use-waypoint` names
// (waypoints.go fetchWaypointForService) and then carries the waypoint's address to ztunnel (services.go
// constructService `waypoint`); the waypoint gets one main_internal chain per bound Service port
// (listener_waypoint.go buildWaypointInternal); a waypoint for `workload` traffic only does not take a Service
// (ReportWaypointUnsupportedTrafficType); an ambient client's request goes client ztunnel → the destination's
// waypoint when it has one, else straight to the pods.
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { ambientBookinfoInputs } from '../translate/xds/waypoint/testing';
import { evaluate, type SandboxBase } from './evaluate';
import type { RequestCheck } from './types';

const base = (useWaypoint: boolean): SandboxBase => {
  const inputs = ambientBookinfoInputs({ useWaypoint });
  return { snapshot: buildSnapshot(inputs, { version: 1, ambient: true }), inputs };
};

const WAYPOINT = 'waypoint-5f7c9d8b6-x2x4k.bookinfo';
const REVIEWS = 'reviews.bookinfo.svc.cluster.local';
const V1 = 'outbound|9080||reviews-v1.bookinfo.svc.cluster.local';
const V2 = 'outbound|9080||reviews-v2.bookinfo.svc.cluster.local';
// An ambient pod named by prefix, as contracts name proxies (resolveProxy).
const CHECK: RequestCheck = {
  proxy: 'productpage-v1',
  request: { mode: 'outbound', host: 'reviews:9080', port: 9080, path: '/reviews/0' },
};

const reviewsService = (labels: string) => `apiVersion: v1
kind: Service
metadata:
  name: reviews
  namespace: bookinfo
  labels: {app: reviews, service: reviews${labels}}
spec:
  ports: [{port: 9080, name: http}]
  selector: {app: reviews}
`;

describe('a use-waypoint label change', () => {
  it('binds reviews: the waypoint gains its chain, ztunnel is told the waypoint, the check goes through it 90/10, the finding resolves', () => {
    const { result } = evaluate(base(false), reviewsService(', istio.io/use-waypoint: waypoint'), { requests: [CHECK] });
    expect(result.errors).toEqual([]);
    expect(result.blastRadius.map((e) => [e.proxy, e.type])).toEqual([
      [WAYPOINT, 'waypoint'],
      ['ztunnel', 'ztunnel'],
    ]);
    expect(result.blastRadius[0]!.summary).toContain(`listener main_internal gains filter chain inbound-vip|9080|http|${REVIEWS}`);
    const z = result.blastRadius[1]!;
    expect(z.types).toEqual(['addresses']);
    expect(z.summary).toEqual([`service bookinfo/${REVIEWS}: waypoint none → bookinfo/waypoint.bookinfo.svc.cluster.local`]);
    const zd = result.diffs.find((d) => d.proxy === 'ztunnel')!;
    expect(zd.resources).toEqual([expect.objectContaining({ type: 'addresses', name: `bookinfo/${REVIEWS}`, change: 'changed' })]);
    expect((zd.resources[0]!.after as { waypoint?: unknown }).waypoint).toEqual({
      hostname: { namespace: 'bookinfo', hostname: 'waypoint.bookinfo.svc.cluster.local' },
      hboneMtlsPort: 15008,
    });

    const [c] = result.checks;
    expect(c!.changed).toBe(true);
    expect(c!.live.result.ambient?.waypoint).toMatchObject({ used: false, reason: 'NoUseWaypoint' });
    expect(c!.draft.result.ambient?.waypoint).toEqual({ used: true, name: 'bookinfo/waypoint' });
    expect(c!.draft.distribution).toEqual({ [V1]: 90, [V2]: 10 });

    // MSC0203 on the HTTPRoute (no waypoint) goes away with the label.
    expect(result.findings.filter((f) => f.code === 'MSC0203').map((f) => [f.state, f.object])).toEqual([
      ['resolved', 'HTTPRoute bookinfo/reviews'],
    ]);
  });

  it('naming a waypoint that does not exist: nothing is bound, and the draft is told why (IST0171 WaypointIsNotReady)', () => {
    const { result } = evaluate(base(false), reviewsService(', istio.io/use-waypoint: nope'), { requests: [CHECK] });
    expect(result.blastRadius).toEqual([]);
    const f = result.findings.find((x) => x.code === 'IST0171' && x.object === 'Service bookinfo/reviews')!;
    expect(f).toMatchObject({ state: 'new', path: 'metadata.labels["istio.io/use-waypoint"]', line: 6 });
    expect(f.message).toContain('reason=WaypointIsNotReady, message=waypoint "bookinfo/nope" is not ready');
    expect(result.checks[0]!.draft.result.ambient?.waypoint).toMatchObject({ used: false, reason: 'WaypointIsNotReady' });
    expect(result.checks[0]!.changed).toBe(true);
  });
});

describe('a draft HTTPRoute or VirtualService', () => {
  it('an HTTPRoute 50/50 for a bound reviews changes the waypoint only (not ztunnel) and the check through it', () => {
    const route = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: reviews, namespace: bookinfo}
spec:
  parentRefs: [{group: "", kind: Service, name: reviews, port: 9080}]
  rules:
  - backendRefs:
    - {name: reviews-v1, port: 9080, weight: 50}
    - {name: reviews-v2, port: 9080, weight: 50}
`;
    const { result } = evaluate(base(true), route, { requests: [CHECK] });
    expect(result.errors).toEqual([]);
    expect(result.blastRadius.map((e) => [e.proxy, e.types])).toEqual([[WAYPOINT, ['listeners']]]);
    const c = result.checks[0]!;
    expect(c.live.distribution).toEqual({ [V1]: 90, [V2]: 10 });
    expect(c.draft.distribution).toEqual({ [V1]: 50, [V2]: 50 });
    expect(c.draft.result.ambient?.hops.map((h) => h.hop)).toEqual(['ztunnel', 'waypoint', 'ztunnel', 'ztunnel']);
  });

  it('a VirtualService for reviews without a waypoint: no proxy changes, and the finding says why (MSC0203 at its line)', () => {
    const vs = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews-v3, namespace: bookinfo}
spec:
  hosts:
  - reviews
  http:
  - route:
    - destination: {host: reviews-v3}
`;
    const { result } = evaluate(base(false), vs, { requests: [CHECK] });
    expect(result.blastRadius).toEqual([]);
    const f = result.findings.filter((x) => x.state === 'new');
    expect(f.map((x) => [x.code, x.object, x.path, x.line])).toEqual([
      ['MSC0203', 'VirtualService bookinfo/reviews-v3', 'spec.hosts[0]', 6],
    ]);
    expect(result.checks[0]!.changed).toBe(false);
  });
});

describe('a waypoint Gateway draft', () => {
  it('waypoint-for: workload unbinds the reviews Service: the waypoint loses its chain, ztunnel loses the waypoint, IST0171 is new', () => {
    const gw = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: waypoint
  namespace: bookinfo
  labels: {istio.io/waypoint-for: workload}
spec:
  gatewayClassName: istio-waypoint
  listeners: [{name: mesh, port: 15008, protocol: HBONE}]
status:
  addresses: [{type: Hostname, value: waypoint.bookinfo.svc.cluster.local}]
`;
    const { result } = evaluate(base(true), gw, { requests: [CHECK] });
    expect(result.errors).toEqual([]);
    expect(result.blastRadius.map((e) => e.proxy)).toEqual([WAYPOINT, 'ztunnel']);
    expect(result.blastRadius[1]!.summary).toEqual([
      `service bookinfo/${REVIEWS}: waypoint bookinfo/waypoint.bookinfo.svc.cluster.local → none`,
    ]);
    const f = result.findings.find((x) => x.code === 'IST0171' && x.object === 'Service bookinfo/reviews')!;
    expect(f.state).toBe('new');
    expect(f.message).toContain('attempting to bind to traffic type "service" which the waypoint "bookinfo/waypoint" does not support');
    const c = result.checks[0]!;
    expect(c.changed).toBe(true);
    expect(c.draft.result.ambient?.waypoint).toMatchObject({ used: false, reason: 'UnsupportedTrafficType' });
  });
});
