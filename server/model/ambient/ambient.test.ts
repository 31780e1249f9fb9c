// The ambient index against istiod's rules (pilot/pkg/serviceregistry/ambient/waypoints.go, workloads.go,
// services.go and their tests). Each case names the function or test it mirrors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../sources/file/parseFile';
import { buildSnapshot } from '../snapshot';
import type { GatewaySpec, GwObject } from '../gatewayapi/types';
import { ingressUseWaypoint, parseUseWaypoint } from './bindings';
import { isAmbientPod } from './index';
import { allowedRoutesOf, gatewayAddress } from './waypoints';

const TEXT = readFileSync(join(import.meta.dirname, 'testdata/ambient.yaml'), 'utf8');
const snap = (ambient = true) => buildSnapshot(parseText(TEXT, 'ambient.yaml').inputs, { version: 1, ambient });
const index = snap().ambient!;

const gw = (over: Partial<GwObject<GatewaySpec>> & { listeners?: GatewaySpec['listeners'] }): GwObject<GatewaySpec> => ({
  kind: 'Gateway',
  apiVersion: 'gateway.networking.k8s.io/v1',
  meta: { name: 'wp', namespace: 'ns', labels: {}, annotations: {}, creationTimestamp: '' },
  spec: { gatewayClassName: 'istio-waypoint', listeners: over.listeners ?? [], addresses: [] },
  origin: { source: 'file' },
  ...over,
});

describe('what makes a pod ambient (workloads.go setTunnelProtocol)', () => {
  it('the istio-cni annotation ambient.istio.io/redirection: enabled', () => {
    expect(isAmbientPod({ labels: {}, annotations: { 'ambient.istio.io/redirection': 'enabled' } })).toBe(true);
    // constants.AmbientRedirectionPending is not enrolled (cni podutil.go PodFullyEnrolled).
    expect(isAmbientPod({ labels: {}, annotations: { 'ambient.istio.io/redirection': 'pending' } })).toBe(false);
  });
  it('the native tunnel label networking.istio.io/tunnel: http (model.SupportsTunnel)', () => {
    expect(isAmbientPod({ labels: { 'networking.istio.io/tunnel': 'http' }, annotations: {} })).toBe(true);
  });
  it('NOT the namespace label istio.io/dataplane-mode: a pod of a labelled namespace without the annotation is not ambient', () => {
    expect(index.workloads.get('labelled-only/plain-abc')?.ambient).toBe(false);
    expect(index.workloads.get('app/reviews-v1-abc')?.ambient).toBe(true);
    expect(index.workloads.get('app/ratings-v1-abc')?.ambient).toBe(true);
  });
  it('an enrolled pod is never an injected sidecar (cni podutil.go podHasSidecar: istio-cni skips sidecar pods)', () => {
    const s = snap();
    expect(s.pods.find((p) => p.name === 'reviews-v1-abc')?.proxy).toBe('none');
  });
});

describe('waypoints (waypoints.go gatewayToWaypointTransform, getGatewayAddress, makeAllowedRoutes)', () => {
  it('a Gateway counts only once its status has an address; a pending istio-waypoint Gateway says why', () => {
    expect([...index.waypoints.keys()]).toEqual(['app/shared', 'app/waypoint', 'app/workload-only']);
    expect(index.pending.map((p) => p.key)).toEqual(['app/unready']);
    expect(index.pending[0]!.reason).toMatch(/status has no address/);
  });
  it('getGatewayAddress: a Hostname address first, else an IPAddress, HBONE port 15008', () => {
    expect(index.waypoints.get('app/waypoint')!.address).toEqual({
      hostname: { namespace: 'app', hostname: 'waypoint.app.svc.cluster.local' },
      hboneMtlsPort: 15008,
    });
    expect(index.waypoints.get('app/shared')!.address).toEqual({ address: { network: '', ip: '10.96.9.9' }, hboneMtlsPort: 15008 });
    const both = gw({
      statusAddresses: [
        { type: 'IPAddress', value: '10.0.0.1' },
        { type: 'Hostname', value: 'wp.ns.svc.cluster.local' },
      ],
    });
    expect(gatewayAddress(both)).toEqual({ hostname: { namespace: 'ns', hostname: 'wp.ns.svc.cluster.local' }, hboneMtlsPort: 15008 });
    expect(gatewayAddress(gw({ statusAddresses: [{ type: 'IPAddress', value: 'not-an-ip' }] }))).toBeUndefined();
  });
  it('waypoint-for: the Gateway label, else the GatewayClass label, else "service"', () => {
    expect(index.waypoints.get('app/waypoint')!.trafficType).toBe('service');
    expect(index.waypoints.get('app/shared')!.trafficType).toBe('all');
    expect(index.waypoints.get('app/workload-only')!.trafficType).toBe('workload');
  });
  it('TestMakeAllowedRoutes: "istio-waypoint defaults to same namespace" and "matching listener with allowed routes"', () => {
    expect(allowedRoutesOf(gw({}), undefined)).toEqual({ from: 'Same' });
    const all = gw({
      listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE', allowedRoutes: { namespaces: { from: 'All' } } }],
    });
    expect(allowedRoutesOf(all, undefined)).toEqual({ from: 'All' });
    // A listener on another port/protocol is not the HBONE one.
    const other = gw({ listeners: [{ name: 'x', port: 15009, protocol: 'HBONE', allowedRoutes: { namespaces: { from: 'All' } } }] });
    expect(allowedRoutesOf(other, undefined)).toEqual({ from: 'Same' });
  });
  it('TestMakeAllowedRoutes "sandwiched waypoint with listener with allowed routes": the PROXY-bound listener decides', () => {
    const sandwich = gw({
      meta: {
        name: 'wp',
        namespace: 'ns',
        labels: {},
        annotations: { 'ambient.istio.io/waypoint-inbound-binding': 'PROXY' },
        creationTimestamp: '',
      },
      listeners: [
        { name: 'mesh', port: 15008, protocol: 'HBONE', allowedRoutes: { namespaces: { from: 'Same' } } },
        { name: 'proxy', port: 15088, protocol: 'istio.io/PROXY', allowedRoutes: { namespaces: { from: 'All' } } },
      ],
    });
    expect(allowedRoutesOf(sandwich, undefined)).toEqual({ from: 'All' });
  });
  it('its pods are proxies of type waypoint, instances of it (fetchWaypointForInstance), with its service accounts', () => {
    const s = snap();
    expect(s.proxiesById.get('waypoint-7d9c8b6f5-abcde.app')?.type).toBe('waypoint');
    expect(index.waypoints.get('app/waypoint')!.proxies).toEqual(['waypoint-7d9c8b6f5-abcde.app']);
    expect(index.waypoints.get('app/waypoint')!.serviceAccounts).toEqual(['waypoint']);
    expect(index.workloads.get('app/waypoint-7d9c8b6f5-abcde')).toMatchObject({ instanceOf: 'app/waypoint' });
    expect(index.workloads.get('app/waypoint-7d9c8b6f5-abcde')?.waypoint).toBeUndefined();
  });
});

describe('Service bindings (fetchWaypointForTarget / fetchWaypointForService)', () => {
  it('inherited from the namespace label', () => {
    expect(index.services.get('app/reviews.app.svc.cluster.local')).toMatchObject({ waypoint: 'app/waypoint', source: 'namespace' });
  });
  it('use-waypoint: none on the Service opts out of the namespace waypoint (GetUseWaypoint isNone)', () => {
    const b = index.services.get('app/ratings.app.svc.cluster.local')!;
    expect(b.waypoint).toBeUndefined();
    expect(b.skip).toMatchObject({ reason: 'OptedOut', istiodError: false });
  });
  it('a waypoint for workload traffic only: ReportWaypointUnsupportedTrafficType', () => {
    const b = index.services.get('app/details.app.svc.cluster.local')!;
    expect(b.waypoint).toBeUndefined();
    expect(b.skip).toMatchObject({ reason: 'UnsupportedTrafficType', waypoint: 'app/workload-only', istiodError: true });
    expect(b.skip!.message).toContain('"workload"');
  });
  it('a waypoint Gateway without a status address: ReportWaypointIsNotReady, saying it has no address', () => {
    const b = index.services.get('app/pending.app.svc.cluster.local')!;
    expect(b.skip).toMatchObject({ reason: 'WaypointIsNotReady', waypoint: 'app/unready', istiodError: true });
    expect(b.skip!.message).toMatch(/no address/);
  });
  it('use-waypoint-namespace into a waypoint whose allowedRoutes selector admits the namespace', () => {
    expect(index.services.get('other/blue.other.svc.cluster.local')).toMatchObject({ waypoint: 'app/shared', source: 'service' });
  });
  it('cross-namespace into a waypoint admitting only its own namespace: ReportWaypointAttachmentDenied', () => {
    const b = index.services.get('other/denied.other.svc.cluster.local')!;
    expect(b.waypoint).toBeUndefined();
    expect(b.skip).toMatchObject({ reason: 'AttachmentDenied', waypoint: 'app/waypoint' });
  });
  it("a waypoint's own Service has no waypoint (fetchWaypointForService: gateway.istio.io/managed mesh controller)", () => {
    expect(index.services.get('app/waypoint.app.svc.cluster.local')!.skip).toMatchObject({ reason: 'IsWaypoint' });
  });
  it('no label anywhere', () => {
    expect(index.services.get('labelled-only/plain.labelled-only.svc.cluster.local')!.skip).toMatchObject({ reason: 'NoUseWaypoint' });
  });
});

describe('workload bindings (computeWaypoint / fetchWaypointForWorkload)', () => {
  it('a namespace binding to a service-only waypoint is no error for the workload (the label is not on it)', () => {
    const b = index.workloads.get('app/reviews-v1-abc')!;
    expect(b.waypoint).toBeUndefined();
    expect(b.skip).toMatchObject({ reason: 'UnsupportedTrafficType', istiodError: false });
  });
  it("the pod's own label wins over its namespace's; a selector the namespace does not match denies attachment", () => {
    expect(index.workloads.get('app/ratings-v1-abc')!.skip).toMatchObject({ reason: 'AttachmentDenied', waypoint: 'app/shared' });
  });
});

describe('labels', () => {
  it('GetUseWaypoint: none, a name, a name with use-waypoint-namespace', () => {
    expect(parseUseWaypoint({ 'istio.io/use-waypoint': 'none' }, 'a')).toEqual({ none: true });
    expect(parseUseWaypoint({ 'istio.io/use-waypoint': 'wp' }, 'a')).toEqual({ key: 'a/wp' });
    expect(parseUseWaypoint({ 'istio.io/use-waypoint': 'wp', 'istio.io/use-waypoint-namespace': 'b' }, 'a')).toEqual({ key: 'b/wp' });
    expect(parseUseWaypoint({}, 'a')).toBeUndefined();
  });
  it('ingressUseWaypointFromLabels: the Service first, then the namespace; strconv.ParseBool', () => {
    expect(ingressUseWaypoint({ 'istio.io/ingress-use-waypoint': 'true' }, {})).toEqual({ present: true, use: true });
    expect(ingressUseWaypoint({}, { 'istio.io/ingress-use-waypoint': 'T' })).toEqual({ present: true, use: true });
    expect(ingressUseWaypoint({ 'istio.io/ingress-use-waypoint': 'false' }, { 'istio.io/ingress-use-waypoint': 'true' })).toEqual({
      present: true,
      use: false,
    });
    expect(ingressUseWaypoint({ 'istio.io/ingress-use-waypoint': 'yes' }, {})).toEqual({ present: true, use: false });
    expect(index.services.get('other/blue.other.svc.cluster.local')).toMatchObject({ ingressLabelPresent: true, ingressUseWaypoint: true });
  });
});

describe('what a waypoint proxy serves (WaypointKeyForProxy + ServicesForWaypoint / WorkloadsForWaypoint)', () => {
  it('the Services whose waypoint address is the hostname of a Service selecting the waypoint pod', () => {
    expect(index.servicesForProxy.get('waypoint-7d9c8b6f5-abcde.app')).toEqual(['app/reviews.app.svc.cluster.local']);
    expect(index.workloadsForProxy.get('waypoint-7d9c8b6f5-abcde.app')).toEqual([]);
  });
  it('without the ambient profile the snapshot has no ambient index', () => {
    expect(snap(false).ambient).toBeUndefined();
  });
});
