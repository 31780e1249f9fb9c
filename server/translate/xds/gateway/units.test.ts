// Pure gateway helpers against Istio's rules (gateway.go, route.go, credentials). Host name order and
// intersection are tested with server/model/host.
import { describe, expect, it } from 'vitest';
import type { RouteJson, VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import { credentialResourceName } from './tlsContext';
import { collapseDuplicateRoutes, sortVHostRoutes } from './vhosts';

describe('credentials', () => {
  it('credentials.ToResourceName: plain names become kubernetes://, typed names kept, builtin:// → default', () => {
    expect(credentialResourceName('bookinfo-cert')).toBe('kubernetes://bookinfo-cert');
    expect(credentialResourceName('kubernetes://x')).toBe('kubernetes://x');
    expect(credentialResourceName('builtin://')).toBe('default');
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
