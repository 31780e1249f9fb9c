// Sidecars and gateways under the ambient profile, against istiod's rules: cluster.go BuildClusters ("OutboundTunnel
// cluster is needed for sidecar and gateway"), listener.go BuildListeners (connect_originate unless waypoint),
// cluster_waypoint.go buildConnectOriginate, cluster_tls.go applyHBONETransportSocketMatches
// (cluster_tls_test.go TestApplyUpstreamTLSSettingsHBONE), endpoint_builder.go buildEnvoyLbEndpoint / supportTunnel /
// findServiceWaypoint (pilot/pkg/xds/waypoint_test.go TestIngressUseWaypoint), features/ambient.go registerAmbient.
// Inputs: Istio's Bookinfo enrolled in ambient with a waypoint for reviews (../waypoint/testing.ts), a sidecar client
// `sleep` and the stock ingress gateway.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../model/snapshot';
import type { MeshSnapshot, ProxyModel } from '../../../model/mesh';
import { translateProxy } from '../../index';
import type { ResourceTable } from '../../types';
import { ambientBookinfoInputs, labelService } from '../waypoint/testing';
import type { RawInput } from '../../../model/inputs';
import { parseText } from '../../../sources/file/parseFile';

const EXTRA = [
  join(import.meta.dirname, '../waypoint/testdata/sleep-sidecar.yaml'),
  join(import.meta.dirname, 'testdata/hbone-clients.yaml'),
];
const SLEEP = 'sleep.bookinfo';
const INGRESS = 'istio-ingressgateway-7d4f8b9c5-abcde.istio-system';
const REVIEWS = 'outbound|9080||reviews.bookinfo.svc.cluster.local';
const WAYPOINT_POD_IP = '10.244.9.10';

const inputs = (extra: RawInput[] = []) => [...ambientBookinfoInputs({ extra: EXTRA }), ...extra];
const snapOf = (i: RawInput[], ambient = true) => buildSnapshot(i, { version: 1, ambient });
const tableOf = (snap: MeshSnapshot, id: string, metadata?: Record<string, string>): ResourceTable => {
  const proxy = snap.proxiesById.get(id) as ProxyModel;
  expect(proxy).toBeDefined();
  return translateProxy(snap, metadata ? { ...proxy, metadata } : proxy);
};
const yaml = (text: string): RawInput[] => parseText(text, 'inline.yaml').inputs;

type J = Record<string, any>;
const cluster = (t: ResourceTable, name: string) => t.clusters.find((c) => c.name === name) as J;
const lbEndpoints = (t: ResourceTable, name: string): J[] =>
  (t.endpoints.find((e) => e.clusterName === name)?.endpoints ?? []).flatMap((g) => (g.lbEndpoints ?? []) as J[]);
/** xdstest.ExtractLoadAssignments' string form: `connect_originate;local;waypoint` for internal addresses, IP:port else. */
const endpointStrings = (t: ResourceTable, name: string): string[] =>
  lbEndpoints(t, name)
    .map((e) => {
      const internal = e.endpoint.address.envoyInternalAddress;
      if (!internal) return `${e.endpoint.address.socketAddress.address}:${e.endpoint.address.socketAddress.portValue}`;
      const od = e.metadata.filterMetadata['envoy.filters.listener.original_dst'];
      return [internal.serverListenerName, od.local, od.waypoint].filter((x) => x !== undefined).join(';');
    })
    .sort();
const socketMatches = (c: J) =>
  (c.transportSocketMatches as J[]).map((m) => ({
    name: m.name,
    socket: m.transportSocket.name,
    inner: m.transportSocket.typedConfig.transportSocket?.name,
  }));

const ambient = snapOf(inputs());
const pods = (app: string) => ambient.pods.filter((p) => p.labels['app'] === app);

describe('without the ambient profile nothing changes (features/ambient.go registerAmbient: EnableHBONESend defaults false)', () => {
  it('no connect_originate, no hbone transport socket match, plain socket addresses', () => {
    const off = snapOf(inputs(), false);
    for (const id of [SLEEP, INGRESS]) {
      const t = tableOf(off, id);
      expect(t.listeners.map((l) => l.name)).not.toContain('connect_originate');
      expect(t.clusters.map((c) => c.name)).not.toContain('connect_originate');
      for (const c of t.clusters) expect((c.transportSocketMatches ?? []).map((m) => m.name)).not.toContain('hbone');
      for (const e of t.endpoints)
        for (const g of e.endpoints ?? [])
          for (const lb of g.lbEndpoints ?? []) expect(lb.endpoint?.address?.envoyInternalAddress).toBeUndefined();
    }
  });
});

describe.each([
  ['sidecar', SLEEP],
  ['gateway', INGRESS],
])('%s under the ambient profile: connect_originate (cluster.go BuildClusters, listener.go BuildListeners)', (_kind, id) => {
  const t = tableOf(ambient, id);

  it('the connect_originate listener: internal, original_dst, tcp_proxy tunnelling to %DOWNSTREAM_LOCAL_ADDRESS% (buildConnectForwarder)', () => {
    const l = t.listeners.find((x) => x.name === 'connect_originate') as J;
    expect(l.internalListener).toEqual({});
    expect(l.useOriginalDst).toBe(false);
    expect(l.listenerFilters.map((f: J) => f.name)).toEqual(['envoy.filters.listener.original_dst']);
    expect(l.filterChains[0].filters[0].typedConfig).toMatchObject({
      statPrefix: 'connect_originate',
      cluster: 'connect_originate',
      tunnelingConfig: { hostname: '%DOWNSTREAM_LOCAL_ADDRESS%' },
    });
  });

  it('the connect_originate cluster: ORIGINAL_DST to port 15008, waypoint metadata key, HBONE TLS without SAN matchers (buildConnectOriginate(…, nil))', () => {
    const c = cluster(t, 'connect_originate');
    expect(c.type).toBe('ORIGINAL_DST');
    expect(c.lbPolicy).toBe('CLUSTER_PROVIDED');
    expect(c.cleanupInterval).toBe('60s');
    expect(c.originalDstLbConfig).toEqual({
      upstreamPortOverride: 15008,
      metadataKey: { key: 'envoy.filters.listener.original_dst', path: [{ key: 'waypoint' }] },
    });
    const common = c.transportSocket.typedConfig.commonTlsContext;
    expect(common.tlsParams).toEqual({ tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' });
    expect(common.alpnProtocols).toEqual(['h2']);
    expect(common.combinedValidationContext.defaultValidationContext).toEqual({});
  });

  it('outbound clusters with auto mTLS: hbone (internal upstream over raw buffer), then tlsMode-istio, then plaintext (TestApplyUpstreamTLSSettingsHBONE "auto mTLS and HBONE")', () => {
    const c = cluster(t, REVIEWS);
    expect(c.transportSocket).toBeUndefined();
    expect(socketMatches(c)).toEqual([
      { name: 'hbone', socket: 'envoy.transport_sockets.internal_upstream', inner: 'envoy.transport_sockets.raw_buffer' },
      { name: 'tlsMode-istio', socket: 'envoy.transport_sockets.tls', inner: undefined },
      { name: 'tlsMode-disabled', socket: 'envoy.transport_sockets.raw_buffer', inner: undefined },
    ]);
    expect(c.transportSocketMatches[0].match).toEqual({ tunnel: 'http' });
    // util.FullMetadataPassthroughInternalUpstreamTransportSocket
    expect(c.transportSocketMatches[0].transportSocket.typedConfig.passthroughMetadata).toEqual([
      { kind: { host: {} }, name: 'envoy.filters.listener.original_dst' },
      { kind: { cluster: {} }, name: 'istio' },
      { kind: { host: {} }, name: 'istio' },
    ]);
  });

  it('EDS: ambient pods become HBONE endpoints (supportTunnel via the ambient index), sidecar pods keep mTLS (tlsMode istio, PreferHBONESend off)', () => {
    const reviews = lbEndpoints(t, REVIEWS);
    expect(reviews).toHaveLength(3);
    for (const e of reviews) {
      const target = e.endpoint.address.envoyInternalAddress;
      expect(target.serverListenerName).toBe('connect_originate');
      const pod = pods('reviews').find((p) => `${p.ip}:9080` === target.endpointId);
      expect(pod).toBeDefined();
      // BuildTunnelMetadataStruct(address, port, ""): the pod behind the tunnel, no waypoint
      expect(e.metadata.filterMetadata['envoy.filters.listener.original_dst']).toEqual({ local: `${pod!.ip}:9080` });
      expect(e.metadata.filterMetadata['envoy.transport_socket_match']).toEqual({ tunnel: 'http' });
      expect(e.metadata.filterMetadata.istio.workload).toMatch(/^reviews-v[123];bookinfo;reviews;v[123];/);
    }
    // sleep runs a sidecar: Istio mTLS, a socket address
    expect(endpointStrings(t, 'outbound|80||sleep.bookinfo.svc.cluster.local')).toEqual(['10.244.9.20:8080']);
    expect(
      lbEndpoints(t, 'outbound|80||sleep.bookinfo.svc.cluster.local')[0]!.metadata.filterMetadata['envoy.transport_socket_match'],
    ).toEqual({
      tlsMode: 'istio',
    });
    // the waypoint's own pods speak HBONE (label gateway.istio.io/managed: istio.io-mesh-controller)
    expect(endpointStrings(t, 'outbound|15008||waypoint.bookinfo.svc.cluster.local')).toEqual([
      `connect_originate;${WAYPOINT_POD_IP}:15008`,
    ]);
  });
});

describe('a Service with a waypoint (endpoint_builder.go findServiceWaypoint)', () => {
  const reviewsVip = ambient.servicesByHost.get('reviews.bookinfo.svc.cluster.local')![0]!.address;

  it('a sidecar bypasses the destination waypoint: reviews (bound to waypoint) is sent to its pods directly', () => {
    const expected = pods('reviews')
      .map((p) => `connect_originate;${p.ip}:9080`)
      .sort();
    expect(endpointStrings(tableOf(ambient, SLEEP), REVIEWS)).toEqual(expected);
  });

  it('a gateway also goes to the pods without istio.io/ingress-use-waypoint', () => {
    const expected = pods('reviews')
      .map((p) => `connect_originate;${p.ip}:9080`)
      .sort();
    expect(endpointStrings(tableOf(ambient, INGRESS), REVIEWS)).toEqual(expected);
  });

  it('a gateway sends to the waypoint with istio.io/ingress-use-waypoint on the Service (TestIngressUseWaypoint: connect_originate;VIP:port;waypointIP:15008)', () => {
    const snap = snapOf(labelService(inputs(), 'bookinfo', 'reviews', { 'istio.io/ingress-use-waypoint': 'true' }));
    const t = tableOf(snap, INGRESS);
    expect(endpointStrings(t, REVIEWS)).toEqual([`connect_originate;${reviewsVip}:9080;${WAYPOINT_POD_IP}:15008`]);
    const e = lbEndpoints(t, REVIEWS)[0]!;
    expect(e.endpoint.address.envoyInternalAddress.endpointId).toBe(`${WAYPOINT_POD_IP}:15008`);
    expect(e.metadata.filterMetadata['envoy.transport_socket_match']).toEqual({ tunnel: 'http' });
    // the subset-style per-version Services are not bound: still their pods
    expect(endpointStrings(t, 'outbound|9080||reviews-v1.bookinfo.svc.cluster.local')).toHaveLength(1);
    expect(endpointStrings(t, 'outbound|9080||reviews-v1.bookinfo.svc.cluster.local')[0]).not.toContain(WAYPOINT_POD_IP);
    // ...and a sidecar still bypasses it (only routers call service waypoints)
    expect(endpointStrings(tableOf(snap, SLEEP), REVIEWS)).toEqual(
      pods('reviews')
        .map((p) => `connect_originate;${p.ip}:9080`)
        .sort(),
    );
  });

  it('the namespace label works too (services.go ingressUseWaypointFromLabels), and the Service label "false" wins over it', () => {
    const withNs = (i: RawInput[]) =>
      i.map((x) => {
        const o = x.object as J;
        if (o.kind !== 'Namespace' || o.metadata.name !== 'bookinfo') return x;
        return {
          ...x,
          object: { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, 'istio.io/ingress-use-waypoint': 'true' } } },
        };
      });
    const t = tableOf(snapOf(withNs(inputs())), INGRESS);
    expect(endpointStrings(t, REVIEWS)).toEqual([`connect_originate;${reviewsVip}:9080;${WAYPOINT_POD_IP}:15008`]);
    const optedOut = tableOf(
      snapOf(labelService(withNs(inputs()), 'bookinfo', 'reviews', { 'istio.io/ingress-use-waypoint': 'false' })),
      INGRESS,
    );
    expect(endpointStrings(optedOut, REVIEWS)).toEqual(
      pods('reviews')
        .map((p) => `connect_originate;${p.ip}:9080`)
        .sort(),
    );
  });
});

describe('DestinationRule TLS under HBONE (cluster_tls.go applyHBONETransportSocketMatches)', () => {
  const dr = (mode: string) =>
    yaml(`apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews, namespace: bookinfo}
spec:
  host: reviews
  trafficPolicy:
    tls: {mode: ${mode}${mode === 'SIMPLE' ? ', caCertificates: /etc/root.pem' : ''}}
`);
  const matchesFor = (mode: string) => {
    const c = cluster(tableOf(snapOf(inputs(dr(mode))), SLEEP), REVIEWS);
    expect(c.transportSocket).toBeUndefined();
    return socketMatches(c);
  };

  it('DISABLE (no TLS context): HBONE or plaintext (hboneOrPlaintextSocket)', () => {
    expect(matchesFor('DISABLE')).toEqual([
      { name: 'hbone', socket: 'envoy.transport_sockets.internal_upstream', inner: 'envoy.transport_sockets.raw_buffer' },
      { name: 'tlsMode-disabled', socket: 'envoy.transport_sockets.raw_buffer', inner: undefined },
    ]);
  });

  it('ISTIO_MUTUAL set by the user: HBONE replaces it where supported, else Istio mTLS (no match)', () => {
    const c = cluster(tableOf(snapOf(inputs(dr('ISTIO_MUTUAL'))), SLEEP), REVIEWS);
    expect(socketMatches(c)).toEqual([
      { name: 'hbone', socket: 'envoy.transport_sockets.internal_upstream', inner: 'envoy.transport_sockets.raw_buffer' },
      { name: 'tlsMode-istio', socket: 'envoy.transport_sockets.tls', inner: undefined },
    ]);
    expect(c.transportSocketMatches[1].match).toBeUndefined();
  });

  it('SIMPLE: TLS inside HBONE, else the user TLS (TestApplyUpstreamTLSSettingsHBONE "explicit TLS and HBONE")', () => {
    expect(matchesFor('SIMPLE')).toEqual([
      { name: 'hbone', socket: 'envoy.transport_sockets.internal_upstream', inner: 'envoy.transport_sockets.tls' },
      { name: 'user', socket: 'envoy.transport_sockets.tls', inner: undefined },
    ]);
  });
});

describe('DISABLE_HBONE_SEND node metadata (pkg/model/proxy.go NodeMetadata.DisableHBONESend)', () => {
  it('no connect_originate cluster and no HBONE endpoints, but still the listener and the hbone socket match (both only read the feature)', () => {
    const t = tableOf(ambient, SLEEP, { DISABLE_HBONE_SEND: 'true' });
    expect(t.clusters.map((c) => c.name)).not.toContain('connect_originate');
    expect(t.listeners.map((l) => l.name)).toContain('connect_originate');
    expect(socketMatches(cluster(t, REVIEWS)).map((m) => m.name)).toEqual(['hbone', 'tlsMode-istio', 'tlsMode-disabled']);
    expect(endpointStrings(t, REVIEWS)).toEqual(
      pods('reviews')
        .map((p) => `${p.ip}:9080`)
        .sort(),
    );
  });
});
