// Small pure helpers: durations (google.protobuf.Duration JSON), host matching (pkg/config/host),
// alias handling (route.go GetDestinationCluster; httproute.go generateVirtualHostDomains with Aliases).
import { describe, expect, it } from 'vitest';
import { destinationCluster } from './destination';
import { altVirtualHosts } from './domains';
import { formatDuration, normalizeDuration } from '../../../lib/duration';
import { hostsMatch as hostMatches, mostSpecificHostMatch } from '../../../model/host';
import { buildSidecarRouteConfigs } from './sidecarRouteConfigs';
import { aliasIndex } from './virtualHosts';
import { encodeRoute, service, view, virtualService } from './testing';

describe('durations', () => {
  it('accepts proto and Go forms and prints proto3 JSON with 0/3/6/9 fractional digits', () => {
    expect(['10s', '1.5s', '500ms', '1m30s', '24h', '0s', '1us', '2ns', '0.000001s'].map(normalizeDuration)).toEqual([
      '10s',
      '1.500s',
      '0.500s',
      '90s',
      '86400s',
      '0s',
      '0.000001s',
      '0.000000002s',
      '0.000001s',
    ]);
    expect(formatDuration(1_250_000_000n)).toBe('1.250s');
  });
  it('rejects garbage and negative durations', () => {
    expect(['', 'soon', '-1s', '10', '1x'].map(normalizeDuration)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('host matching (host.Name.Matches, MostSpecificHostMatch)', () => {
  it('wildcards match suffixes in both directions', () => {
    expect(hostMatches('*.example.com', 'a.example.com')).toBe(true);
    expect(hostMatches('a.example.com', '*.example.com')).toBe(true);
    expect(hostMatches('*.com', '*.example.com')).toBe(true);
    expect(hostMatches('*.example.com', 'example.com')).toBe(false);
    expect(hostMatches('*', 'anything.local')).toBe(true);
  });
  it('exact beats wildcard; the longest wildcard wins', () => {
    const exact = new Map([['a.b.c', 'exact']]);
    const wild = new Map([
      ['*', 'star'],
      ['*.b.c', 'bc'],
      ['*.c', 'c'],
    ]);
    expect(mostSpecificHostMatch('a.b.c', exact, wild)).toBe('exact');
    expect(mostSpecificHostMatch('x.b.c', exact, wild)).toBe('bc');
    expect(mostSpecificHostMatch('x.y', exact, wild)).toBe('star');
  });
  it('absolute FQDN is added for names but not IPs; no short forms outside the proxy .svc suffix', () => {
    expect(altVirtualHosts('10.0.0.1', 'default.svc.cluster.local')).toEqual([]);
    expect(altVirtualHosts('api.example.com', 'default.svc.cluster.local')).toEqual(['api.example.com.']);
    // IPv6 literals are IPs too (istiod: net.ParseIP); the zone-id form as node:net's isIP has always read it here
    expect(altVirtualHosts('2001:db8::1', 'default.svc.cluster.local')).toEqual([]);
    expect(altVirtualHosts('fe80::1%eth0', 'default.svc.cluster.local')).toEqual([]);
    expect(altVirtualHosts('1.2.3.256', 'default.svc.cluster.local')).toEqual(['1.2.3.256.']);
  });
});

describe('ExternalName aliases', () => {
  const concrete = service('reviews', 'default', [[9080]], { address: '10.96.0.4' });
  const alias = service('reviews-alias', 'default', [[9080]], {
    resolution: 'Alias',
    externalName: concrete.hostname,
    address: '0.0.0.0',
    addresses: [],
  });
  it('a destination on an alias service points at the concrete host', () => {
    expect(destinationCluster({ host: alias.hostname }, alias, 9080)).toBe(`outbound|9080||${concrete.hostname}`);
  });
  it('the concrete service vhost carries the alias names; the alias gets no default vhost of its own', () => {
    const rc = buildSidecarRouteConfigs(view({ services: [concrete, alias] }), [9080]).routes[0];
    if (!rc) throw new Error('no route config');
    encodeRoute(rc);
    expect(rc.virtualHosts?.map((v) => v.name)).toEqual([`${concrete.hostname}:9080`, 'allow_any']);
    expect(rc.virtualHosts?.[0]?.domains).toEqual([
      concrete.hostname,
      `${concrete.hostname}.`,
      'reviews',
      'reviews.default.svc',
      'reviews.default',
      alias.hostname,
      `${alias.hostname}.`,
      'reviews-alias',
      'reviews-alias.default.svc',
      'reviews-alias.default',
      '10.96.0.4',
    ]);
  });
  it('a VirtualService on the alias host claims it as a registry service', () => {
    const vs = virtualService('a', 'default', {
      hosts: [alias.hostname],
      http: [{ route: [{ destination: { host: alias.hostname, subset: 'v1' } }] }],
    });
    const rc = buildSidecarRouteConfigs(view({ services: [concrete, alias], virtualServices: [vs] }), [9080]).routes[0];
    const vh = rc?.virtualHosts?.find((v) => v.name === `${alias.hostname}:9080`);
    expect(vh?.routes?.[0]?.route?.cluster).toBe(`outbound|9080|v1|${concrete.hostname}`);
  });
  it('several aliases of one host, in service order, matched case-insensitively (aliasIndex: one pass for all vhosts)', () => {
    const second = service('ratings-alias', 'default', [[9080]], {
      resolution: 'Alias',
      externalName: concrete.hostname.toUpperCase(),
      address: '0.0.0.0',
      addresses: [],
    });
    const other = service('details', 'default', [[9080]], { address: '10.96.0.5' });
    const idx = aliasIndex([alias, other, concrete, second]);
    expect([...idx.entries()]).toEqual([[concrete.hostname, [alias.hostname, second.hostname]]]);
    const rc = buildSidecarRouteConfigs(view({ services: [second, concrete, other, alias] }), [9080]).routes[0];
    const domains = rc?.virtualHosts?.find((v) => v.name === `${concrete.hostname}:9080`)?.domains ?? [];
    // generateVirtualHostDomains: the service's names, then each alias' names in service order
    expect(domains.indexOf(second.hostname)).toBeGreaterThan(domains.indexOf(concrete.hostname));
    expect(domains.indexOf(alias.hostname)).toBeGreaterThan(domains.indexOf(second.hostname));
    expect(rc?.virtualHosts?.find((v) => v.name === 'details.default.svc.cluster.local:9080')?.domains).not.toContain(alias.hostname);
  });
});

describe('gatewayRouteContext (gateway.go: listen port = server port, gateway name <ns>/<name>)', () => {
  it('routes match the gateway name, default to the service single port and hash from the DestinationRule', async () => {
    const { gatewayRouteContext } = await import('./gatewayContext');
    const { buildHttpRoutesForVirtualService } = await import('./httpRoutes');
    const { destinationRule } = await import('./testing');
    const reviews = service('reviews', 'default', [[9080]]);
    const dr = destinationRule('reviews', 'default', {
      host: reviews.hostname,
      trafficPolicy: { loadBalancer: { consistentHash: { useSourceIp: true } } },
    });
    const v = view({ services: [reviews], destinationRules: [dr] });
    const vs = virtualService('gw-vs', 'default', {
      hosts: ['bookinfo.example.com'],
      gateways: ['bookinfo-gateway'],
      http: [
        { match: [{ gateways: ['bookinfo-gateway'], uri: { prefix: '/reviews' } }], route: [{ destination: { host: reviews.hostname } }] },
      ],
    });
    const ctx = gatewayRouteContext(v, { serverPort: 80, gatewayNames: new Set(['default/bookinfo-gateway']), vsNamespace: 'default' });
    const [r] = buildHttpRoutesForVirtualService(vs, ctx).routes;
    expect(r?.route?.cluster).toBe(`outbound|9080||${reviews.hostname}`);
    expect(r?.route?.hashPolicy).toEqual([{ connectionProperties: { sourceIp: true } }]);
    expect(
      buildHttpRoutesForVirtualService(
        vs,
        gatewayRouteContext(v, { serverPort: 80, gatewayNames: new Set(['other/gw']), vsNamespace: 'default' }),
      ).routes,
    ).toEqual([]);
  });
});
