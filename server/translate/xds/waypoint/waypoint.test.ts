// A waypoint's LDS/CDS/EDS against istiod's rules: pilot/pkg/networking/core/{listener_waypoint,cluster_waypoint,
// waypoint}.go and pilot/pkg/xds/waypoint_test.go. Each case names what it mirrors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../sources/file/parseFile';
import { buildSnapshot } from '../../../model/snapshot';
import { translateProxy } from '../../index';
import { canonicalJson } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import type { ListenerJson, RouteConfigurationJson } from '../../types';
import { ambientBookinfo, WAYPOINT_ID } from './testing';

const TEXT = readFileSync(join(import.meta.dirname, 'testdata/rules.yaml'), 'utf8');
const snapOf = (ambient = true) => buildSnapshot(parseText(TEXT, 'rules.yaml').inputs, { version: 1, ambient });
const snap = snapOf();
const table = translateProxy(snap, snap.proxiesById.get('waypoint-abc.default')!);
const APP = 'app.default.svc.cluster.local';

type J = Record<string, any>;
const listener = (name: string) => table.listeners.find((l) => l.name === name) as J;
const chain = (name: string) => (listener('main_internal').filterChains as J[]).find((c) => c.name === name)!;
const hcmOf = (c: J) => c.filters.find((f: J) => f.name === 'envoy.filters.network.http_connection_manager')?.typedConfig as J;
const routeConfig = (c: J) => hcmOf(c).routeConfig as RouteConfigurationJson;
/** xdstest.EvaluateListenerFilterPredicates: true when the predicate disables the filter for the port. */
function disabledFor(pred: J | undefined, port: number): boolean {
  if (!pred) return false;
  if (pred.orMatch) return (pred.orMatch.rules as J[]).some((r) => disabledFor(r, port));
  if (pred.notMatch) return !disabledFor(pred.notMatch, port);
  if (pred.destinationPortRange) return port >= pred.destinationPortRange.start && port < pred.destinationPortRange.end;
  return false;
}

describe('listeners (listener_waypoint.go buildWaypointInbound)', () => {
  it('connect_terminate on 15008 (HBONE, client cert required) → main_internal → connect_originate', () => {
    expect(table.listeners.map((l) => l.name)).toEqual(['connect_originate', 'connect_terminate', 'main_internal']);
    const ct = listener('connect_terminate');
    expect(ct.address.socketAddress).toEqual({ address: '0.0.0.0', portValue: 15008 });
    expect(ct.filterChains[0].transportSocket.typedConfig.requireClientCertificate).toBe(true);
    const route = hcmOf(ct.filterChains[0]).routeConfig.virtualHosts[0].routes[0];
    expect(route).toEqual({
      match: { connectMatcher: {} },
      route: { cluster: 'main_internal', upgradeConfigs: [{ upgradeType: 'CONNECT', connectConfig: {} }] },
    });
    const co = listener('connect_originate');
    expect(co.internalListener).toEqual({});
    expect(co.filterChains[0].filters[0].typedConfig).toMatchObject({
      cluster: 'connect_originate',
      tunnelingConfig: { hostname: '%DOWNSTREAM_LOCAL_ADDRESS%' },
    });
  });

  it('main_internal: one chain per bound Service port named by its inbound-vip cluster, sniffed ports get tcp+http, then direct-tcp/direct-http', () => {
    const names = (listener('main_internal').filterChains as J[]).map((c) => c.name);
    expect(names).toEqual([
      `inbound-vip|80|http|${APP}`,
      `inbound-vip|90|tcp|${APP}`,
      `inbound-vip|90|http|${APP}`,
      'inbound-vip|80|tcp|app2.default.svc.cluster.local',
      'inbound-vip|443|tcp|app2.default.svc.cluster.local',
      'inbound-vip|8080|http|plain.default.svc.cluster.local',
      'direct-tcp',
      'direct-http',
    ]);
    // The unbound Service `other` and the waypoint's own Service get no chain.
    expect(names.some((n) => n.includes('other') || n.includes('waypoint.default'))).toBe(false);
  });

  it('filter_chain_matcher: destination IP (the Service VIP) → port → chain; sniffed ports by application protocol', () => {
    const tree = listener('main_internal').filterChainMatcher.matcherTree;
    expect(tree.input.typedConfig['@type']).toBe(
      'type.googleapis.com/envoy.extensions.matching.common_inputs.network.v3.DestinationIPInput',
    );
    const [app] = tree.customMatch.typedConfig.rangeMatchers as J[];
    expect(app!.ranges).toEqual([{ addressPrefix: '10.96.1.1', prefixLen: 32 }]);
    const map = app!.onMatch.matcher.matcherTree.exactMatchMap.map;
    expect(map['80'].action.name).toBe(`inbound-vip|80|http|${APP}`);
    expect(map['90'].matcher.onNoMatch.action.name).toBe(`inbound-vip|90|tcp|${APP}`);
    expect(map['90'].matcher.matcherTree.exactMatchMap.map["'http/1.1'"].action.name).toBe(`inbound-vip|90|http|${APP}`);
  });

  it('TestWaypointNetworkFilters: HTTP inspector only where a port is sniffed or mixes HTTP and TCP; TLS inspector only on TLS ports', () => {
    const filters = listener('main_internal').listenerFilters as J[];
    const http = filters.find((f) => f.name === 'envoy.filters.listener.http_inspector')!;
    expect(disabledFor(http.filterDisabled, 80)).toBe(false); // HTTP (app) and TCP (app2) on the same port
    expect(disabledFor(http.filterDisabled, 90)).toBe(false); // unspecified
    expect(disabledFor(http.filterDisabled, 443)).toBe(true); // TLS only
    const tls = filters.find((f) => f.name === 'envoy.filters.listener.tls_inspector')!;
    expect(disabledFor(tls.filterDisabled, 443)).toBe(false);
    expect(disabledFor(tls.filterDisabled, 80)).toBe(true);
    expect(disabledFor(tls.filterDisabled, 90)).toBe(true);
  });
});

describe('routes (buildWaypointInboundHTTPRouteConfig, waypointInboundRoute, getWaypointDestinationCluster)', () => {
  const rc = routeConfig(chain(`inbound-vip|80|http|${APP}`));
  const routes = rc.virtualHosts![0]!.routes!;
  it('inline, named by the chain cluster, one vhost inbound|http|PORT with domains *', () => {
    expect(rc.name).toBe(`inbound-vip|80|http|${APP}`);
    expect(rc.virtualHosts!.map((v) => [v.name, v.domains])).toEqual([['inbound|http|80', ['*']]]);
    expect(table.routes).toEqual([]);
  });
  it('sourceLabels matches are dropped (istio#51565); a catch-all ends its VirtualService; TestWaypointMultipleVirtualServices: VirtualServices merge', () => {
    expect(routes.map((r) => r.match?.prefix)).toEqual(['/a', '/', '/b']);
  });
  it('a Service the waypoint serves → inbound-vip|PORT|http[/subset]|HOST; any other → outbound|…', () => {
    expect(routes[0]!.route?.cluster).toBe(`inbound-vip|80|http/v1|${APP}`);
    expect(routes[1]!.route?.cluster).toBe('outbound|80||other.default.svc.cluster.local');
    expect(routes[2]!.route?.cluster).toBe(`inbound-vip|80|http|${APP}`);
  });
  it('no VirtualService: the default outbound-style route to the chain cluster (buildSidecarInboundHTTPRouteConfig, waypoint branch)', () => {
    const def = routeConfig(chain('inbound-vip|8080|http|plain.default.svc.cluster.local'));
    expect(
      def.virtualHosts![0]!.routes!.map((r) => [r.name, r.match?.prefix, r.route?.cluster, r.route?.timeout, r.decorator?.operation]),
    ).toEqual([['default', '/', 'inbound-vip|8080|http|plain.default.svc.cluster.local', '0s', 'plain.default.svc.cluster.local:8080/*']]);
    // BuildDefaultHTTPOutboundRoute carries the mesh default retry policy.
    expect(def.virtualHosts![0]!.routes![0]!.route?.retryPolicy?.numRetries).toBe(2);
    expect(def.maxDirectResponseBodySizeBytes).toBe(1024 * 1024);
    const d = routeConfig(chain('direct-http'));
    expect(d.name).toBe('encap');
    expect(d.virtualHosts![0]!.routes!.map((r) => [r.name, r.route?.cluster, r.route?.timeout])).toEqual([['default', 'encap', '0s']]);
  });
});

describe('clusters (cluster.go case model.Waypoint, cluster_waypoint.go)', () => {
  const names = table.clusters.map((c) => c.name);
  it('main_internal and encap are STATIC internal upstreams; connect_originate is ORIGINAL_DST to 15008', () => {
    const get = (n: string) => table.clusters.find((c) => c.name === n) as J;
    expect(get('main_internal').loadAssignment.endpoints[0].lbEndpoints[0].endpoint.address).toEqual({
      envoyInternalAddress: { serverListenerName: 'main_internal' },
    });
    expect(get('encap').loadAssignment.endpoints[0].lbEndpoints[0].endpoint.address).toEqual({
      envoyInternalAddress: { serverListenerName: 'connect_originate' },
    });
    expect(get('connect_originate')).toMatchObject({
      type: 'ORIGINAL_DST',
      lbPolicy: 'CLUSTER_PROVIDED',
      originalDstLbConfig: { upstreamPortOverride: 15008 },
    });
    // buildWaypointConnectOriginate: SAN prefix of the waypoint's namespace
    expect(
      get('connect_originate').transportSocket.typedConfig.commonTlsContext.combinedValidationContext.defaultValidationContext,
    ).toEqual({
      matchTypedSubjectAltNames: [{ sanType: 'URI', matcher: { prefix: 'spiffe://cluster.local/ns/default/sa/' } }],
    });
  });
  it('buildWaypointInboundVIP: http for HTTP ports, tcp for TCP, both for sniffed; per DestinationRule subset', () => {
    for (const n of [
      `inbound-vip|80|http|${APP}`,
      `inbound-vip|80|http/v1|${APP}`,
      `inbound-vip|80|http/v2|${APP}`,
      `inbound-vip|90|tcp|${APP}`,
      `inbound-vip|90|http/v1|${APP}`,
    ])
      expect(names).toContain(n);
    expect(names).not.toContain(`inbound-vip|80|tcp|${APP}`);
    const vip = table.clusters.find((c) => c.name === `inbound-vip|80|http/v1|${APP}`) as J;
    expect(vip.type).toBe('EDS');
    expect(vip.metadata.filterMetadata.istio).toMatchObject({
      subset: 'v1',
      config: '/apis/networking.istio.io/v1/namespaces/default/destination-rule/app',
    });
    expect(vip.transportSocket.typedConfig.passthroughMetadata.map((m: J) => m.name)).toEqual([
      'envoy.filters.listener.original_dst',
      'istio',
    ]);
  });
  it('filterWaypointOutboundServices: outbound clusters only for unbound Services a bound Service routes to', () => {
    expect(names.filter((n) => n?.startsWith('outbound|'))).toEqual(['outbound|80||other.default.svc.cluster.local']);
  });
});

describe('endpoints (buildEnvoyLbEndpoint; TestWaypointEndpoints)', () => {
  it('HBONE through connect_originate for a workload that supports the tunnel; a plain address otherwise', () => {
    const cla = table.endpoints.find((e) => e.clusterName === `inbound-vip|80|http|${APP}`)!;
    const eps = cla.endpoints!.flatMap((g) => g.lbEndpoints!);
    const shown = eps.map((e) => {
      const a = e.endpoint!.address!;
      return a.envoyInternalAddress
        ? `${a.envoyInternalAddress.serverListenerName};${a.envoyInternalAddress.endpointId}`
        : `${a.socketAddress!.address}:${a.socketAddress!.portValue}`;
    });
    expect(shown.sort()).toEqual(['10.244.0.12:8080', 'connect_originate;10.244.0.11:8080']);
    const hbone = eps.find((e) => e.endpoint!.address!.envoyInternalAddress) as J;
    expect(hbone.metadata.filterMetadata['envoy.filters.listener.original_dst']).toEqual({ local: '10.244.0.11:8080' });
  });
  it('subset clusters get the subset only (populateSubsetInfo strips http/)', () => {
    const cla = table.endpoints.find((e) => e.clusterName === `inbound-vip|80|http/v2|${APP}`)!;
    expect(cla.endpoints!.flatMap((g) => g.lbEndpoints!).map((e) => e.endpoint!.address!.socketAddress?.address)).toEqual(['10.244.0.12']);
  });
});

describe('authorization on a waypoint (WorkloadPolicyMatcher.ShouldAttachPolicy)', () => {
  const rbacOf = (c: J) => (hcmOf(c).httpFilters as J[]).filter((f) => f.name === 'envoy.filters.http.rbac');
  it('a policy with targetRefs Service/app applies on app chains only; a selector policy never applies to a waypoint', () => {
    const app = rbacOf(chain(`inbound-vip|80|http|${APP}`));
    expect(app).toHaveLength(1);
    expect(Object.keys(app[0]!.typedConfig.rules.policies)).toEqual(['ns[default]-policy[on-app]-rule[0]']);
    expect(rbacOf(chain('direct-http'))).toEqual([]);
  });
});

describe('encoding and profiles', () => {
  it('every listener and cluster encodes with the generated registry (main_internal IPMatcher, internal_upstream)', () => {
    for (const l of table.listeners) expect(() => canonicalJson(TYPE.listener, l as ListenerJson)).not.toThrow();
    for (const c of table.clusters) expect(() => canonicalJson(TYPE.cluster, c)).not.toThrow();
  });
  it('without the ambient profile istiod has no ambient index: the waypoint serves nothing and says so', () => {
    const s = snapOf(false);
    const t = translateProxy(s, s.proxiesById.get('waypoint-abc.default')!);
    expect((t.listeners.find((l) => l.name === 'main_internal') as J).filterChains.map((c: J) => c.name)).toEqual([
      'direct-tcp',
      'direct-http',
    ]);
    expect(t.errors.some((e) => e.message.includes('--ambient'))).toBe(true);
  });
});

describe('Bookinfo with a waypoint for reviews and route-reviews-90-10 as a GAMMA HTTPRoute', () => {
  it('the reviews chain routes 90/10 to reviews-v1/v2, which the waypoint does not serve (outbound clusters)', () => {
    const s = ambientBookinfo();
    const t = translateProxy(s, s.proxiesById.get(WAYPOINT_ID)!);
    const c = (t.listeners.find((l) => l.name === 'main_internal') as J).filterChains.find(
      (x: J) => x.name === 'inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local',
    );
    const r = routeConfig(c).virtualHosts![0]!.routes![0]!;
    expect(r.route?.weightedClusters?.clusters).toEqual([
      { name: 'outbound|9080||reviews-v1.bookinfo.svc.cluster.local', weight: 90 },
      { name: 'outbound|9080||reviews-v2.bookinfo.svc.cluster.local', weight: 10 },
    ]);
    expect(t.clusters.map((x) => x.name).filter((n) => n?.startsWith('outbound|'))).toEqual([
      'outbound|9080||reviews-v1.bookinfo.svc.cluster.local',
      'outbound|9080||reviews-v2.bookinfo.svc.cluster.local',
    ]);
  });
});
