// Virtual host selection per Envoy's VirtualHost.domains docs and RouteMatcher::findVirtualHost: exact
// domain, then the longest suffix wildcard `*.x`, then the longest prefix wildcard `x.*`, then `*`; host is
// lower-cased; wildcards match at least one character; the port is only stripped with
// ignore_port_in_host_matching / strip_any_host_port / strip_matching_host_port (Envoy FAQ
// why_is_my_route_not_found: "www.host.com:443" does not match domain "www.host.com").
import { describe, expect, it } from 'vitest';
import type { EnvoyJson } from '../envoy/encode';
import { hostForMatching, hostStripping, selectVirtualHost } from './virtualHost';

const rc = (extra: Record<string, unknown> = {}): EnvoyJson => ({
  name: '80',
  virtual_hosts: [
    { name: 'any', domains: ['*'] },
    { name: 'prefix-short', domains: ['api.*'] },
    { name: 'prefix-long', domains: ['api.example.*'] },
    { name: 'suffix-short', domains: ['*.com'] },
    { name: 'suffix-long', domains: ['*.example.com'] },
    { name: 'exact', domains: ['api.example.com', 'api.example.com:80'] },
  ],
  ...(extra as EnvoyJson),
});
const pick = (host: string, cfg: EnvoyJson = rc(), hcm?: EnvoyJson, port = 80) =>
  selectVirtualHost(cfg, host, hostStripping(cfg, hcm, port)).vhost?.['name'];

describe('selectVirtualHost precedence', () => {
  it('exact beats every wildcard', () => expect(pick('api.example.com')).toBe('exact'));
  it('exact match is case-insensitive', () => expect(pick('API.Example.COM')).toBe('exact'));
  it('longest suffix wildcard beats a shorter one and prefix wildcards', () => expect(pick('www.example.com')).toBe('suffix-long'));
  it('shorter suffix wildcard when the longer does not match', () => expect(pick('www.other.com')).toBe('suffix-short'));
  it('prefix wildcard only when no suffix wildcard matches', () => expect(pick('api.example.org')).toBe('prefix-long'));
  it('shorter prefix wildcard', () => expect(pick('api.other.org')).toBe('prefix-short'));
  it('* is the last resort', () => expect(pick('foo.org')).toBe('any'));
  it('a suffix wildcard needs at least one character before the suffix', () => {
    const cfg = { virtual_hosts: [{ name: 'w', domains: ['*.example.com'] }] };
    expect(pick('.example.com', cfg)).toBeUndefined();
  });
  it('exact host:port domain (Istio sidecar vhosts list both forms)', () => expect(pick('api.example.com:80')).toBe('exact'));
  it('port is not stripped by default: host:port misses a port-less exact domain', () => {
    const cfg = { virtual_hosts: [{ name: 'h', domains: ['httpbin.example.com'] }] };
    expect(pick('httpbin.example.com:8080', cfg)).toBeUndefined();
  });
  it('ignore_port_in_host_matching strips the port', () => {
    const cfg = { ignore_port_in_host_matching: true, virtual_hosts: [{ name: 'h', domains: ['httpbin.example.com'] }] };
    expect(pick('httpbin.example.com:8080', cfg)).toBe('h');
  });
  it('strip_any_host_port on the HCM strips the port', () => {
    const cfg = { virtual_hosts: [{ name: 'h', domains: ['a.b'] }] };
    expect(pick('a.b:9', cfg, { strip_any_host_port: true })).toBe('h');
  });
  it('strip_matching_host_port strips only the listener port', () => {
    const cfg = { virtual_hosts: [{ name: 'h', domains: ['a.b'] }] };
    expect(pick('a.b:8080', cfg, { strip_matching_host_port: true }, 8080)).toBe('h');
    expect(pick('a.b:9090', cfg, { strip_matching_host_port: true }, 8080)).toBeUndefined();
  });
  it('IPv6 literal host keeps its address when the port is stripped', () => {
    expect(hostForMatching('[::1]:80', hostStripping({ ignore_port_in_host_matching: true }, undefined, 80))).toBe('[::1]');
  });
  it('lists every other virtual host as rejected with a reason', () => {
    const r = selectVirtualHost(rc(), 'www.example.com', hostStripping(rc(), undefined, 80));
    expect(r.rejected).toContainEqual({ hop: 'virtualHost', name: 'exact', index: 5, reason: 'domain does not match' });
    expect(r.rejected).toContainEqual({
      hop: 'virtualHost',
      name: 'any',
      index: 0,
      reason: 'a more specific domain matched in another virtual host',
    });
    expect(r.rejected).toHaveLength(5);
  });
  it('no domains at all → nothing', () => expect(pick('x', { virtual_hosts: [] })).toBeUndefined());
});
