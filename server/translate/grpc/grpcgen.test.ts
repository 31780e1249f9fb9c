// grpcgen (pilot/pkg/networking/grpcgen) on Istio's Bookinfo manifests, checked against Istio's rules and
// against the gRPC team's own resource validators (@grpc/grpc-js-xds decode = what a client ACKs or NACKs).
import { ClusterResourceType } from '@grpc/grpc-js-xds/build/src/xds-resource-type/cluster-resource-type.js';
import { EndpointResourceType } from '@grpc/grpc-js-xds/build/src/xds-resource-type/endpoint-resource-type.js';
import { ListenerResourceType } from '@grpc/grpc-js-xds/build/src/xds-resource-type/listener-resource-type.js';
import { RouteConfigurationResourceType } from '@grpc/grpc-js-xds/build/src/xds-resource-type/route-config-resource-type.js';
import * as grpcXds from '@grpc/grpc-js-xds';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../envoy/encode';
import { TYPE, type TypeUrl } from '../../envoy/typeUrls';
import { DEFAULT_OPTIONS, type ProxyModel } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { loadPaths } from '../../sources/file/loadPaths';
import { bookinfo, REPO_ROOT } from '../../testing/paths';
import { join } from 'node:path';
import { buildProxyView } from '../view';
import {
  buildGrpcInboundListeners,
  buildGrpcListeners,
  buildGrpcRouteConfigs,
  listenerNameFilter,
  splitHostPort,
  translateGrpc,
  tryFindFqdn,
} from './index';

const load = (...paths: string[]) => {
  const r = loadPaths(paths);
  return buildSnapshot(r.inputs, { version: 3, extraErrors: r.errors });
};
const snap = load(
  bookinfo('platform', 'bookinfo.yaml'),
  bookinfo('networking', 'destination-rule-all.yaml'),
  bookinfo('networking', 'virtual-service-reviews-80-20.yaml'),
);
const client: ProxyModel = {
  id: 'grpc-client.default',
  type: 'sidecar',
  name: 'grpc-client',
  namespace: 'default',
  labels: { app: 'grpc-client' },
  ips: ['10.1.0.9'],
  locality: { region: '', zone: '', subzone: '' },
};
const view = buildProxyView(snap, client, DEFAULT_OPTIONS);
const REVIEWS = 'reviews.default.svc.cluster.local';

describe('listener names (grpcgen/lds.go newListenerNameFilter, tryFindFQDN)', () => {
  it('splits host:port like net.SplitHostPort', () => {
    expect(splitHostPort('reviews:9080')).toEqual({ host: 'reviews', port: 9080 });
    expect(splitHostPort('[fd00::1]:80')).toEqual({ host: 'fd00::1', port: 80 });
    expect(splitHostPort('reviews')).toBeUndefined();
  });
  it('expands short names relative to the node namespace only (foo, foo.ns, foo.ns.svc), never another namespace', () => {
    expect(tryFindFqdn('reviews', 'default', 'cluster.local')).toBe(REVIEWS);
    expect(tryFindFqdn('reviews.default', 'default', 'cluster.local')).toBe(REVIEWS);
    expect(tryFindFqdn('reviews.default.svc', 'default', 'cluster.local')).toBe(REVIEWS);
    expect(tryFindFqdn('reviews.other', 'default', 'cluster.local')).toBe('');
  });
  it('indexes each name under what was asked and its FQDN; a name without port means every port', () => {
    const f = listenerNameFilter(['reviews:9080', 'ratings'], 'default', 'cluster.local');
    expect([...(f.get(REVIEWS)?.requestedHosts ?? [])]).toEqual(['reviews']);
    expect([...(f.get(REVIEWS)?.ports ?? [])]).toEqual([9080]);
    expect(f.get('ratings.default.svc.cluster.local')?.ports).toBeUndefined();
  });
});

describe('LDS (grpcgen/lds.go buildOutboundListeners)', () => {
  it('one API listener per requested name, named exactly as asked, RDS named by the default cluster key, fault then router', () => {
    const ls = buildGrpcListeners(view, [`${REVIEWS}:9080`, 'reviews:9080', 'nope.default.svc.cluster.local:1']);
    expect(ls.map((l) => l.name).sort()).toEqual([`${REVIEWS}:9080`, 'reviews:9080']);
    for (const l of ls) {
      const hcm = l.apiListener?.apiListener as Record<string, unknown> & { rds: { routeConfigName: string; configSource: unknown } };
      expect(hcm.rds.routeConfigName).toBe(`outbound|9080||${REVIEWS}`);
      expect(hcm.rds.configSource).toEqual({ ads: {} });
      expect((hcm.httpFilters as Array<{ name: string }>).map((f) => f.name)).toEqual([
        'envoy.filters.http.fault',
        'envoy.filters.http.router',
      ]);
    }
  });
  it('a port that is not the service port gives nothing', () => {
    expect(buildGrpcListeners(view, [`${REVIEWS}:9999`])).toEqual([]);
  });
});

describe('LDS for xDS gRPC servers (grpcgen/lds.go buildInboundListeners)', () => {
  const ratings = snap.proxies.find((p) => p.labels.app === 'ratings')!;
  const server = buildProxyView(snap, ratings, DEFAULT_OPTIONS);
  const NAME = 'xds.istio.io/grpc/lds/inbound/0.0.0.0:9080';

  it('a served port: one plaintext chain (PERMISSIVE without PeerAuthentication), inline route config, non-forwarding action', () => {
    const { listeners, errors } = buildGrpcInboundListeners(server, [
      NAME,
      'xds.istio.io/grpc/lds/inbound/0.0.0.0:7777',
      `${REVIEWS}:9080`,
    ]);
    expect(errors).toEqual([]);
    expect(listeners.map((l) => l.name)).toEqual([NAME]); // 7777: no service target; the outbound name is not inbound
    const l = listeners[0]!;
    expect(l.address).toEqual({ socketAddress: { address: '0.0.0.0', portValue: 9080 } });
    expect(l.filterChains?.map((c) => c.name)).toEqual(['inbound-plaintext']);
    const hcm = l.filterChains?.[0]?.filters?.[0]?.typedConfig as unknown as {
      routeConfig: { name: string; virtualHosts: unknown[] };
      httpFilters: Array<{ name: string }>;
    };
    expect(hcm.routeConfig).toEqual({
      name: 'inbound',
      virtualHosts: [{ domains: ['*'], routes: [{ match: { prefix: '/' }, nonForwardingAction: {} }] }],
    });
    expect(hcm.httpFilters.map((f) => f.name)).toEqual(['envoy.filters.http.router']);
  });

  it('pods labelled tlsMode=istio would get STRICT mTLS from istiod: reported and omitted, never served plaintext', () => {
    const istio = buildProxyView(
      snap,
      { ...ratings, labels: { ...ratings.labels, 'security.istio.io/tlsMode': 'istio' } },
      DEFAULT_OPTIONS,
    );
    const { listeners, errors } = buildGrpcInboundListeners(istio, [NAME]);
    expect(listeners).toEqual([]);
    expect(errors[0]?.message).toContain('STRICT mTLS');
  });

  // buildInboundFilterChains: the PeerAuthentication mode of the port decides; only PERMISSIVE is upgraded by the label.
  const withPa = (file: string) =>
    load(bookinfo('platform', 'bookinfo.yaml'), join(REPO_ROOT, 'server', 'translate', 'grpc', 'testdata', file));
  it('a STRICT PeerAuthentication: mTLS from istiod, reported and omitted', () => {
    const s = withPa('pa-ratings.yaml');
    const v = buildProxyView(s, s.proxies.find((p) => p.labels.app === 'ratings')!, DEFAULT_OPTIONS);
    const { listeners, errors } = buildGrpcInboundListeners(v, [NAME]);
    expect(listeners).toEqual([]);
    expect(errors[0]?.message).toContain('PeerAuthentication mode STRICT');
  });
  it('a DISABLE PeerAuthentication: plaintext even for pods labelled tlsMode=istio', () => {
    const s = withPa('pa-ratings-disable.yaml');
    const r = s.proxies.find((p) => p.labels.app === 'ratings')!;
    const v = buildProxyView(s, { ...r, labels: { ...r.labels, 'security.istio.io/tlsMode': 'istio' } }, DEFAULT_OPTIONS);
    const { listeners, errors } = buildGrpcInboundListeners(v, [NAME]);
    expect(errors).toEqual([]);
    expect(listeners.map((l) => l.name)).toEqual([NAME]);
  });

  it('the server listener passes the grpc-js-xds listener validator', () => {
    grpcXds.register();
    const server0 = { serverUri: '127.0.0.1:1', channelCreds: [{ type: 'insecure' }], serverFeatures: [], ignoreResourceDeletion: false };
    const context = {
      server: server0,
      bootstrap: { xdsServers: [server0], node: { id: 'x' }, authorities: {}, certificateProviders: {} },
    } as never;
    const l = buildGrpcInboundListeners(server, [NAME]).listeners[0]!;
    const enc = encodeResource(TYPE.listener, NAME, l);
    const res = ListenerResourceType.get().decode(context, { type_url: TYPE.listener, value: Buffer.from(enc.bytes) } as never);
    expect(res.error).toBeUndefined();
  });
});

describe('RDS (grpcgen/rds.go: BuildSidecarOutboundVirtualHosts for the port, ports kept in domains)', () => {
  it('the VirtualService routing of sidecars, without the allow_any catch-all, domains with :port variants', () => {
    const { routes, errors } = buildGrpcRouteConfigs(view, [`outbound|9080||${REVIEWS}`, 'garbage']);
    expect(errors).toEqual([]);
    expect(routes.map((r) => r.name)).toEqual([`outbound|9080||${REVIEWS}`]);
    const vhosts = routes[0]!.virtualHosts ?? [];
    expect(vhosts.some((v) => v.name === 'allow_any')).toBe(false);
    const reviews = vhosts.find((v) => v.name === `${REVIEWS}:9080`)!;
    // generateVirtualHostDomains + appendDomainPort (SidecarIgnorePort is false for proxyless gRPC).
    expect(reviews.domains).toEqual(
      expect.arrayContaining([REVIEWS, `${REVIEWS}:9080`, 'reviews', 'reviews:9080', 'reviews.default.svc:9080']),
    );
    const weighted = reviews.routes?.[0]?.route?.weightedClusters?.clusters?.map((c) => [c.name, c.weight]);
    expect(weighted).toEqual([
      [`outbound|9080|v1|${REVIEWS}`, 80],
      [`outbound|9080|v2|${REVIEWS}`, 20],
    ]);
  });
});

describe('translateGrpc: everything by name, and accepted by the gRPC client validators', () => {
  const watches = {
    listeners: [`${REVIEWS}:9080`],
    routes: [`outbound|9080||${REVIEWS}`],
    clusters: [`outbound|9080|v1|${REVIEWS}`, `outbound|9080|v2|${REVIEWS}`],
    endpoints: [`outbound|9080|v1|${REVIEWS}`, `outbound|9080|v2|${REVIEWS}`],
  };
  const table = translateGrpc(snap, client, watches);

  it('builds exactly the watched names', () => {
    expect(table.listeners.map((l) => l.name)).toEqual(watches.listeners);
    expect(table.routes.map((r) => r.name)).toEqual(watches.routes);
    expect(table.clusters.map((c) => c.name)).toEqual(watches.clusters);
    expect(table.endpoints.map((e) => e.clusterName)).toEqual(watches.endpoints);
    expect(table.errors).toEqual([]);
  });

  it('EDS: each subset has its pods in a locality with a load_balancing_weight (grpc-js-xds drops localities without one)', () => {
    for (const cla of table.endpoints) {
      expect(cla.endpoints?.length).toBeGreaterThan(0);
      for (const loc of cla.endpoints ?? []) {
        expect(loc.locality).toBeDefined();
        expect(loc.loadBalancingWeight).toBe(loc.lbEndpoints?.length);
      }
    }
  });

  it('CDS: EDS over ADS, no LEAST_REQUEST (gRPC accepts ROUND_ROBIN / RING_HASH only)', () => {
    for (const c of table.clusters) {
      expect(c.type).toBe('EDS');
      expect(c.lbPolicy ?? 'ROUND_ROBIN').toBe('ROUND_ROBIN');
      expect(c.edsClusterConfig).toEqual({ serviceName: c.name, edsConfig: { ads: {} } });
    }
  });

  it('every resource decodes without a validation error in @grpc/grpc-js-xds 1.14.1', () => {
    grpcXds.register(); // registers the HTTP filters (fault, router) the listener validator looks up
    const server = { serverUri: '127.0.0.1:1', channelCreds: [{ type: 'insecure' }], serverFeatures: [], ignoreResourceDeletion: false };
    const context = { server, bootstrap: { xdsServers: [server], node: { id: 'x' }, authorities: {}, certificateProviders: {} } } as never;
    const validators: Array<
      [TypeUrl, { decode: (c: never, r: never) => { error?: string; name: string } }, Array<{ name?: string; clusterName?: string }>]
    > = [
      [TYPE.listener, ListenerResourceType.get(), table.listeners],
      [TYPE.route, RouteConfigurationResourceType.get(), table.routes],
      [TYPE.cluster, ClusterResourceType.get(), table.clusters],
      [TYPE.endpoint, EndpointResourceType.get(), table.endpoints],
    ];
    for (const [typeUrl, validator, items] of validators) {
      for (const item of items) {
        const enc = encodeResource(typeUrl, item.name ?? item.clusterName ?? '', item);
        const res = validator.decode(context, { type_url: typeUrl, value: Buffer.from(enc.bytes) } as never);
        expect(res.error, `${typeUrl} ${res.name}`).toBeUndefined();
        expect(res.name).toBe(enc.name);
      }
    }
    // The validator is live: the same listener with the router first is rejected (gRPC: router must be last).
    const hcm = table.listeners[0]!.apiListener!.apiListener as unknown as { httpFilters: unknown[] };
    const reversed = { ...table.listeners[0]!, apiListener: { apiListener: { ...hcm, httpFilters: [...hcm.httpFilters].reverse() } } };
    const bad = encodeResource(TYPE.listener, reversed.name ?? '', reversed);
    const res = ListenerResourceType.get().decode(context, { type_url: TYPE.listener, value: Buffer.from(bad.bytes) } as never);
    expect(res.error).toContain('router filter is before the end of the list');
  });
});
