// Gateway merging and binding helpers against Istio's rules (model/gateway.go, pkg/config/host/names.go).
import { describe, expect, it } from 'vitest';
import type { ServiceTarget } from '../types';
import { intersectHosts, namesForNamespace } from './binding';
import { resolvePort, sanitizeServerHosts, sniHostsForServer } from './merge';

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
});
