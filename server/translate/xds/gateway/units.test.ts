// Pure gateway helpers against Istio's rules (model/gateway.go, pkg/config/host/names.go, gateway.go, route.go).
import { describe, expect, it } from 'vitest';
import type { RouteJson, VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { ServiceTarget } from '../../view/types';
import { resolvePort, sniHostsForServer } from './merge';
import { compareHostSpecificity as moreSpecificFirst, intersectHosts, namesForNamespace, sanitizeServerHosts } from '../../../model/host';
import { collapseDuplicateRoutes, sortVHostRoutes } from './vhosts';
import { credentialResourceName } from './tlsContext';

const target = (port: number, targetPort: number, labels: Record<string, string> = {}): ServiceTarget =>
  ({ service: { labels }, port: { name: 'p', port, protocol: 'HTTP' }, targetPort }) as unknown as ServiceTarget;

describe('model/gateway.go helpers', () => {
  it('sanitizeServerHostNamespace: ./h → ns/h, */h → h, */* → *, ns/h kept', () => {
    expect(sanitizeServerHosts(['./a.com', '*/b.com', 'x/c.com', 'd.com'], 'gw')).toEqual(['gw/a.com', 'b.com', 'x/c.com', 'd.com']);
    expect(sanitizeServerHosts(['a.com', '*/*'], 'gw')).toEqual(['*']);
  });
  it('resolvePorts (legacy selector): a service port maps to its target port (first match), else the port as-is', () => {
    const t = [target(15021, 15021), target(80, 8080), target(443, 8443)];
    expect(resolvePort(80, t)).toBe(8080);
    expect(resolvePort(443, t)).toBe(8443);
    expect(resolvePort(8080, t)).toBe(8080);
    expect(resolvePort(80, [target(80, 8081), target(80, 8082)])).toBe(8081);
  });
  it('resolvePorts skips services labelled networking.istio.io/disable-gateway-port-translation', () => {
    expect(resolvePort(80, [target(80, 8080, { 'networking.istio.io/disable-gateway-port-translation': 'true' })])).toBe(80);
  });
  it('GetSNIHostsForServer: ns/ stripped, deduplicated, sorted; none without TLS', () => {
    expect(
      sniHostsForServer({ port: { number: 443, name: 'h', protocol: 'HTTPS' }, hosts: ['ns/b.com', 'a.com', 'b.com'], tls: {} }),
    ).toEqual(['a.com', 'b.com']);
    expect(sniHostsForServer({ port: { number: 80, name: 'h', protocol: 'HTTP' }, hosts: ['a.com'] })).toEqual([]);
  });
  it('credentials.ToResourceName: plain names become kubernetes://, typed names kept, builtin:// → default', () => {
    expect(credentialResourceName('bookinfo-cert')).toBe('kubernetes://bookinfo-cert');
    expect(credentialResourceName('kubernetes://x')).toBe('kubernetes://x');
    expect(credentialResourceName('builtin://')).toBe('default');
  });
});

describe('pkg/config/host names', () => {
  it('NamesForNamespace: ns/h only for that namespace (or */h); plain hosts kept', () => {
    expect(namesForNamespace(['shop/a.com', 'other/b.com', '*/c.com', 'd.com'], 'shop')).toEqual(['a.com', 'c.com', 'd.com']);
  });
  it('Names.Intersection keeps the more specific name of each covering pair', () => {
    expect(intersectHosts(['*'], ['*'])).toEqual(['*']);
    expect(intersectHosts(['*.example.com'], ['a.example.com', 'b.other.com'])).toEqual(['a.example.com']);
    expect(intersectHosts(['a.example.com', 'b.example.com'], ['*.example.com'])).toEqual(['a.example.com', 'b.example.com']);
    expect(intersectHosts(['*.com', 'bar.net'], ['foo.com', '*.net'])).toEqual(['foo.com', 'bar.net']);
    expect(intersectHosts(['foo.com'], ['bar.com'])).toEqual([]);
  });
  it('MoreSpecific: non-wildcards first, longest first, then alphabetical', () => {
    expect(['*.a.com', 'b.com', '*', 'aa.com', 'ab.com', 'longer.com'].sort(moreSpecificFirst)).toEqual([
      'longer.com',
      'aa.com',
      'ab.com',
      'b.com',
      '*.a.com',
      '*',
    ]);
  });
});

describe('gateway vhost post-processing', () => {
  const r = (prefix: string, extra: Partial<RouteJson> = {}): RouteJson => ({ match: { prefix }, route: { cluster: 'c' }, ...extra });
  it('SortVHostRoutes: catch-alls (prefix / without header matchers) move last, order kept within both groups', () => {
    const a = r('/');
    const b = r('/a');
    const c = r('/', { match: { prefix: '/', headers: [{ name: 'x', presentMatch: true }] } });
    const d = r('/b');
    expect(sortVHostRoutes([a, b, c, d])).toEqual([b, c, d, a]);
  });
  it('collapseDuplicateRoutes: identical route lists (same route objects) fold into the most specific host', () => {
    const shared = [r('/x')];
    const vh = (host: string, routes: RouteJson[], extra: Partial<VirtualHostJson> = {}): VirtualHostJson => ({
      name: `${host}:80`,
      domains: [host],
      routes: [...routes],
      includeRequestAttemptCount: true,
      ...extra,
    });
    const out = collapseDuplicateRoutes(
      new Map([
        ['*.b.com', vh('*.b.com', shared)],
        ['b.com', vh('b.com', shared)],
        ['a.com', vh('a.com', shared)],
        ['c.com', vh('c.com', [r('/x')])], // equal JSON, different objects: istiod compares pointers → kept apart
        ['d.com', vh('d.com', shared, { requireTls: 'ALL' })], // not mergeable: TLS requirement differs
      ]),
    );
    // d.com (not mergeable) replaces a.com as the known holder of that route list (known[hash] = h), so the
    // later *.b.com is compared with d.com and stays apart — istiod's behaviour, kept.
    expect(out.map((v) => [v.name, v.domains])).toEqual([
      ['a.com:80', ['a.com', 'b.com']],
      ['c.com:80', ['c.com']],
      ['d.com:80', ['d.com']],
      ['*.b.com:80', ['*.b.com']],
    ]);
  });
});
