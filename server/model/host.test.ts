// Istio host name semantics, table-driven like istio pkg/config/host/name_test.go (TestNameMatches,
// TestNameSubsetOf) and names_test.go (sort order, Intersection, NamesForNamespace); expected values follow
// the rules stated in name.go / names.go and pilot/pkg/model/config.go MostSpecificHostMatch.
import { describe, expect, it } from 'vitest';
import {
  compareHostSpecificity,
  hostSubsetOf,
  hostsMatch,
  intersectHosts,
  isWildcard,
  mostSpecificHost,
  mostSpecificHostMatch,
  namesForNamespace,
  resolveShortname,
  sanitizeServerHosts,
} from './host';

// [case, a, b, a.Matches(b)]
const MATCHES: [string, string, string, boolean][] = [
  ['both empty', '', '', true],
  ['empty vs name', '', 'shop.io', false],
  ['name vs empty', 'shop.io', '', false],
  ['same exact name', 'shop.io', 'shop.io', true],
  ['different exact names', 'cart.io', 'shop.io', false],
  ['different exact names, swapped', 'shop.io', 'cart.io', false],
  ['a name does not match its subdomain', 'api.shop.io', 'shop.io', false],
  ['a name does not match its subdomain, swapped', 'shop.io', 'api.shop.io', false],
  ['wildcard covers a subdomain', '*.io', 'shop.io', true],
  ['wildcard covers a subdomain, swapped', 'shop.io', '*.io', true],
  ['deeper wildcard covers its subdomain', '*.shop.io', 'api.shop.io', true],
  ['star covers a name', '*', 'shop.io', true],
  ['star covers a wildcard', '*', '*.io', true],
  ['star covers a single label', '*', 'io', true],
  ['star covers star', '*', '*', true],
  ['star covers the empty name', '*', '', true],
  ['shorter wildcard overlaps a longer one', '*.io', '*.shop.io', true],
  ['shorter wildcard overlaps a longer one, swapped', '*.shop.io', '*.io', true],
  ['wildcard does not cover its bare domain', 'shop.io', '*.shop.io', false],
  ['wildcard does not cover its bare domain, swapped', '*.shop.io', 'shop.io', false],
  ['long wildcard vs short name', '*.a.b.io', 'io', false],
  ['long wildcard vs short name, swapped', 'io', '*.a.b.io', false],
  ['long wildcard vs short wildcard', '*.a.b.io', '*.io', true],
  ['long name vs short wildcard', 'a.b.io', '*.io', true],
  ['unrelated wildcards', '*.shop.io', '*.cart.io', false],
];

// [case, a, b, a.SubsetOf(b)]
const SUBSET: [string, string, string, boolean][] = [
  ['both empty', '', '', true],
  ['empty in a name', '', 'shop.io', false],
  ['name in empty', 'shop.io', '', false],
  ['same exact name', 'shop.io', 'shop.io', true],
  ['different exact names', 'cart.io', 'shop.io', false],
  ['a subdomain is not inside a bare name', 'api.shop.io', 'shop.io', false],
  ['a bare name is not inside its subdomain', 'shop.io', 'api.shop.io', false],
  ['name inside a wildcard', 'shop.io', '*.io', true],
  ['another name inside the wildcard', 'cart.io', '*.io', true],
  ['subdomain inside a deeper wildcard', 'api.shop.io', '*.shop.io', true],
  ['name inside star', 'shop.io', '*', true],
  ['wildcard inside star', '*.io', '*', true],
  ['single label inside star', 'io', '*', true],
  ['star inside star', '*', '*', true],
  ['empty inside star', '', '*', true],
  ['longer wildcard inside a shorter one', '*.shop.io', '*.io', true],
  ['shorter wildcard not inside a longer one (one direction only)', '*.io', '*.shop.io', false],
  ['star not inside a wildcard', '*', '*.io', false],
  ['wildcard not inside its bare domain', '*.shop.io', 'shop.io', false],
  ['wildcard never inside an exact name', '*.a.b.io', 'io', false],
  ['long name inside a short wildcard', 'a.b.io', '*.io', true],
];

describe('host.Name.Matches (name_test.go TestNameMatches)', () => {
  for (const [name, a, b, want] of MATCHES)
    it(`${name}: ${JSON.stringify(a)} ~ ${JSON.stringify(b)} → ${want}`, () => expect(hostsMatch(a, b)).toBe(want));

  it('is symmetric on every case', () => {
    for (const [, a, b] of MATCHES) expect(hostsMatch(a, b)).toBe(hostsMatch(b, a));
  });

  it('is SubsetOf in either direction', () => {
    for (const [, a, b] of [...MATCHES, ...SUBSET]) expect(hostsMatch(a, b)).toBe(hostSubsetOf(a, b) || hostSubsetOf(b, a));
  });
});

describe('host.Name.SubsetOf (name_test.go TestNameSubsetOf)', () => {
  for (const [name, a, b, want] of SUBSET)
    it(`${name}: ${JSON.stringify(a)} ⊆ ${JSON.stringify(b)} → ${want}`, () => expect(hostSubsetOf(a, b)).toBe(want));
});

describe('IsWildCarded', () => {
  it('is a leading *', () => {
    expect(['*', '*.io', '*io', '', 'a.*', 'io'].map(isWildcard)).toEqual([true, true, true, false, false, false]);
  });
});

describe('Names sort order (names.go Less / MoreSpecific)', () => {
  it('exact names first, longest first, then byte order; wildcards last by the same rule', () => {
    const hosts = ['*', '*.io', 'b.io', 'a.io', '*.shop.io', 'api.shop.io', 'B.io'];
    expect([...hosts].sort(compareHostSpecificity)).toEqual(['api.shop.io', 'B.io', 'a.io', 'b.io', '*.shop.io', '*.io', '*']);
  });
});

describe('Names.Intersection (names.go)', () => {
  const cases: [readonly string[], readonly string[], string[]][] = [
    [['shop.io', 'cart.io'], ['*.io'], ['shop.io', 'cart.io']],
    [
      ['shop.io', '*.net'],
      ['*.io', 'cdn.net'],
      ['shop.io', 'cdn.net'],
    ],
    [['shop.io', '*.net'], ['*.cdn.net'], ['*.cdn.net']],
    [['shop.io'], ['cart.io'], []],
    [[], ['cart.io'], []],
    [['*'], ['*'], ['*']],
  ];
  for (const [a, b, want] of cases) it(`${a} ∩ ${b}`, () => expect(intersectHosts(a, b)).toEqual(want));
});

describe('NamesForNamespace (names.go)', () => {
  const hosts = ['team-a/shop.io', 'team-b/cart.io', '*/cdn.io', 'plain.io'];
  it('keeps the namespace own and `*/` hosts, and unqualified hosts, without the prefix', () => {
    expect(namesForNamespace(hosts, 'team-a')).toEqual(['shop.io', 'cdn.io', 'plain.io']);
    expect(namesForNamespace(hosts, 'team-c')).toEqual(['cdn.io', 'plain.io']);
    expect(namesForNamespace([], 'team-a')).toEqual([]);
  });
});

describe('sanitizeServerHostNamespace (pilot/pkg/model/gateway.go)', () => {
  it('`./h` takes the gateway namespace, `*/h` drops the prefix, other namespaces stay', () => {
    expect(sanitizeServerHosts(['./shop.io', '*/cdn.io', 'team-b/cart.io', 'plain.io'], 'edge')).toEqual([
      'edge/shop.io',
      'cdn.io',
      'team-b/cart.io',
      'plain.io',
    ]);
  });
  it('`*/*` anywhere makes the list the single host `*`', () => {
    expect(sanitizeServerHosts(['./shop.io', '*/*', 'plain.io'], 'edge')).toEqual(['*']);
  });
});

describe('MostSpecificHostMatch (pilot/pkg/model/config.go)', () => {
  const specific = new Map([['api.shop.io', 'exact']]);
  const wildcard = new Map([
    ['*', 'star'],
    ['*.io', 'io'],
    ['*.shop.io', 'shop'],
  ]);
  it('an exact key wins, else the longest covering wildcard', () => {
    expect(mostSpecificHostMatch('api.shop.io', specific, wildcard)).toBe('exact');
    expect(mostSpecificHostMatch('web.shop.io', specific, wildcard)).toBe('shop');
    expect(mostSpecificHostMatch('cart.io', specific, wildcard)).toBe('io');
    expect(mostSpecificHostMatch('local', specific, wildcard)).toBe('star');
    expect(mostSpecificHostMatch('local', specific, new Map())).toBeUndefined();
  });
  it('a wildcard needle is looked up among the wildcard keys, then by its suffix', () => {
    expect(mostSpecificHostMatch('*.shop.io', specific, wildcard)).toBe('shop');
    expect(mostSpecificHostMatch('*.a.shop.io', specific, wildcard)).toBe('shop');
    expect(mostSpecificHostMatch('*.net', specific, new Map([['*.io', 'io']]))).toBeUndefined();
  });
  it('over a plain list returns the candidate chosen', () => {
    expect(mostSpecificHost('web.shop.io', ['*.io', 'web.shop.io', '*.shop.io'])).toBe('web.shop.io');
    expect(mostSpecificHost('web.shop.io', ['*.io', '*.shop.io'])).toBe('*.shop.io');
    expect(mostSpecificHost('web.shop.io', ['shop.io'])).toBeUndefined();
  });
});

describe('ResolveShortnameToFQDN (pilot/pkg/model/config.go)', () => {
  it('qualifies single-label names only', () => {
    expect(resolveShortname('reviews', 'default', 'cluster.local')).toBe('reviews.default.svc.cluster.local');
    expect(resolveShortname('reviews.prod', 'default', 'cluster.local')).toBe('reviews.prod');
    expect(resolveShortname('*', 'default', 'cluster.local')).toBe('*');
    expect(resolveShortname('*.shop.io', 'default', 'cluster.local')).toBe('*.shop.io');
    expect(resolveShortname('10.1.2.3', 'default', 'cluster.local')).toBe('10.1.2.3');
    expect(resolveShortname('', 'default', 'cluster.local')).toBe('');
  });
});
