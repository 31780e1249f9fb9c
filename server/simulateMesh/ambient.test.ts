// "Does this request go through the waypoint?" on Istio's Bookinfo (../shared/fixtures) in an ambient namespace with
// a waypoint for reviews and route-reviews-90-10 as a GAMMA HTTPRoute. The binding rules are istiod's
// (pilot/pkg/serviceregistry/ambient/waypoints.go fetchWaypointForService); the waypoint's walk is the simulator's
// over the waypoint's own config from main_internal (listener_waypoint.go buildWaypointInternal).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { ambientBookinfo, ambientBookinfoInputs, labelService, WAYPOINT_ID } from '../translate/xds/waypoint/testing';
import { simulateProxy } from './simulateProxy';

const productpage = (s: ReturnType<typeof ambientBookinfo>) => {
  const p = s.pods.find((x) => x.labels.app === 'productpage')!;
  return `${p.name}.${p.namespace}`;
};
const REQ = { mode: 'outbound' as const, host: 'reviews:9080', port: 9080, path: '/reviews/0' };

describe('from an ambient pod (productpage)', () => {
  it('bound: client ztunnel → waypoint (main_internal, the HTTPRoute 90/10) → the destination ztunnels', () => {
    const s = ambientBookinfo();
    const r = simulateProxy(s, productpage(s), REQ)!;
    expect(r.error).toBeUndefined();
    expect(r.ambient?.waypoint).toEqual({ used: true, name: 'bookinfo/waypoint' });
    expect(r.ambient?.hops.map((h) => `${h.hop}${h.role ? `/${h.role}` : ''}`)).toEqual([
      'ztunnel/client',
      'waypoint',
      'ztunnel/server',
      'ztunnel/server',
    ]);
    const wp = r.ambient!.hops[1]!;
    expect(wp).toMatchObject({
      proxy: WAYPOINT_ID,
      listener: 'main_internal',
      filterChain: 'inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local',
    });
    expect(r.weightedClusters).toEqual({
      'outbound|9080||reviews-v1.bookinfo.svc.cluster.local': 90,
      'outbound|9080||reviews-v2.bookinfo.svc.cluster.local': 10,
    });
    expect(r.source).toMatchObject({ kind: 'VirtualService', namespace: 'bookinfo' });
    // The destination ztunnels are reviews-v1's and reviews-v2's (never v3: the route does not send there).
    expect(r.ambient!.hops.slice(2).map((h) => h.workload?.split('/')[1]?.replace(/-[a-z0-9]+-[a-z0-9]+$/, ''))).toEqual([
      'reviews-v1',
      'reviews-v2',
    ]);
  });

  it('without use-waypoint: the waypoint is bypassed, with the reason, straight to every reviews pod', () => {
    const s = ambientBookinfo({ useWaypoint: false });
    const r = simulateProxy(s, productpage(s), REQ)!;
    expect(r.ambient?.waypoint).toMatchObject({ used: false, reason: 'NoUseWaypoint' });
    expect(r.ambient?.waypoint.message).toContain('istio.io/use-waypoint');
    expect(r.ambient?.hops.map((h) => h.hop)).toEqual(['ztunnel', 'ztunnel', 'ztunnel', 'ztunnel']);
    expect(r.endpoints).toHaveLength(3);
    expect(r.weightedClusters).toBeUndefined();
  });

  it("waypoint-for does not accept this traffic: ReportWaypointUnsupportedTrafficType's reason", () => {
    const inputs = labelService(ambientBookinfoInputs(), 'bookinfo', 'reviews', {});
    const wl = inputs.map((i) => {
      const o = i.object as Record<string, any>;
      return o.kind === 'Gateway'
        ? { ...i, object: { ...o, metadata: { ...o.metadata, labels: { 'istio.io/waypoint-for': 'workload' } } } }
        : i;
    });
    const s = buildSnapshot(wl, { version: 1, ambient: true });
    const r = simulateProxy(s, productpage(s), REQ)!;
    expect(r.ambient?.waypoint).toMatchObject({ used: false, reason: 'UnsupportedTrafficType', name: 'bookinfo/waypoint' });
  });

  it('a use-waypoint naming a missing waypoint: WaypointIsNotReady', () => {
    const inputs = labelService(ambientBookinfoInputs({ useWaypoint: false }), 'bookinfo', 'reviews', { 'istio.io/use-waypoint': 'nope' });
    const s = buildSnapshot(inputs, { version: 1, ambient: true });
    const r = simulateProxy(s, productpage(s), REQ)!;
    expect(r.ambient?.waypoint).toMatchObject({ used: false, reason: 'WaypointIsNotReady', name: 'bookinfo/nope' });
  });

  it('a pod that is not ambient is no simulation source (not a proxy, not enrolled)', () => {
    const s = buildSnapshot(
      ambientBookinfoInputs().map((i) => i),
      { version: 1, ambient: false },
    );
    expect(simulateProxy(s, productpage(s), REQ)).toBeUndefined();
  });
});

describe('policy and callers', () => {
  const TD = (f: string) => join(import.meta.dirname, '../translate/xds/waypoint/testdata', f);
  it("the destination ztunnel's L4 policy sees the client's identity when no waypoint is on the path, the waypoint's after one", () => {
    const direct = ambientBookinfo({ useWaypoint: false, extra: [TD('deny-productpage.yaml')] });
    const r = simulateProxy(direct, productpage(direct), REQ)!;
    expect(r.error).toBe('RBAC: access denied');
    expect(r.ambient!.hops.filter((h) => h.role === 'server').every((h) => h.policies?.[0] === 'bookinfo/reviews-deny-productpage')).toBe(
      true,
    );
    const via = ambientBookinfo({ extra: [TD('deny-productpage.yaml')] });
    const w = simulateProxy(via, productpage(via), REQ)!;
    expect(w.error).toBeUndefined();
    expect(w.ambient!.hops.filter((h) => h.role === 'server').every((h) => h.authorization?.decision === 'allow')).toBe(true);
  });
  it('the caller is a sidecar, which bypasses destination waypoints', () => {
    const s = ambientBookinfo({ extra: [TD('sleep-sidecar.yaml')] });
    expect(s.proxiesById.get('sleep.bookinfo')?.type).toBe('sidecar');
    const r = simulateProxy(s, 'sleep.bookinfo', REQ)!;
    expect(r.ambient?.source).toEqual({ workload: 'bookinfo/sleep', kind: 'sidecar' });
    expect(r.ambient?.waypoint).toMatchObject({ used: false, reason: 'SidecarCaller', name: 'bookinfo/waypoint' });
    expect(r.ambient?.waypoint.message).toContain('the caller is a sidecar, which bypasses destination waypoints');
  });
});

describe('--mode waypoint', () => {
  it('starts at main_internal with the Service VIP and reports the filter chain', () => {
    const s = ambientBookinfo();
    const vip = s.services.find((x) => x.name === 'reviews')!.address;
    const r = simulateProxy(s, WAYPOINT_ID, { mode: 'waypoint', address: vip, port: 9080, path: '/' })!;
    expect(r).toMatchObject({ listener: 'main_internal', filterChain: 'inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local' });
    // An address the waypoint serves nothing for: the IP matcher matches no range (Envoy: no filter chain).
    const miss = simulateProxy(s, WAYPOINT_ID, { mode: 'waypoint', address: '10.1.2.3', port: 9080, path: '/' })!;
    expect(miss.error).toBe('no filter chains matched');
  });
});
