// Header and query matcher semantics from Envoy: source/common/http/header_utility.cc
// (HeaderUtility::matchHeaders: a missing header only satisfies present_match:false, or present_match with
// invert; treat_missing_header_as_empty evaluates "" instead; legacy exact_match "" matches any value;
// invert_match negates) and config_utility.cc (QueryParameterMatcher).
import { describe, expect, it } from 'vitest';
import { matchHeader, matchHeaders, matchQueryParam, parseQuery } from './headerMatch';

const H = (o: Record<string, string>) => new Map(Object.entries(o));

describe('matchHeader (HeaderUtility::matchHeaders)', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>, boolean][] = [
    ['string_match exact hit', { name: 'end-user', string_match: { exact: 'jason' } }, { 'end-user': 'jason' }, true],
    ['string_match exact miss', { name: 'end-user', string_match: { exact: 'jason' } }, { 'end-user': 'bob' }, false],
    ['string_match exact, header absent', { name: 'end-user', string_match: { exact: 'jason' } }, {}, false],
    ['string_match prefix', { name: 'x', string_match: { prefix: 'ab' } }, { x: 'abc' }, true],
    ['string_match suffix', { name: 'x', string_match: { suffix: 'bc' } }, { x: 'abc' }, true],
    ['string_match contains', { name: 'x', string_match: { contains: 'b' } }, { x: 'abc' }, true],
    ['string_match ignore_case', { name: 'x', string_match: { exact: 'ABC', ignore_case: true } }, { x: 'abc' }, true],
    ['string_match safe_regex is a full match', { name: 'x', string_match: { safe_regex: { regex: 'b' } } }, { x: 'abc' }, false],
    ['string_match safe_regex full', { name: 'x', string_match: { safe_regex: { regex: 'a.c' } } }, { x: 'abc' }, true],
    ['legacy exact_match', { name: 'x', exact_match: 'v' }, { x: 'v' }, true],
    ['legacy exact_match "" matches any present value', { name: 'x', exact_match: '' }, { x: 'whatever' }, true],
    ['legacy prefix_match', { name: 'x', prefix_match: '/a' }, { x: '/ab' }, true],
    ['legacy safe_regex_match', { name: 'x', safe_regex_match: { regex: '[0-9]+' } }, { x: '123' }, true],
    ['range_match [10,20) includes 10', { name: 'x', range_match: { start: '10', end: '20' } }, { x: '10' }, true],
    ['range_match [10,20) excludes 20', { name: 'x', range_match: { start: '10', end: '20' } }, { x: '20' }, false],
    ['present_match true, present', { name: 'x', present_match: true }, { x: '' }, true],
    ['present_match true, absent', { name: 'x', present_match: true }, {}, false],
    ['present_match false, absent', { name: 'x', present_match: false }, {}, true],
    ['no specifier means present', { name: 'x' }, { x: '1' }, true],
    ['no specifier, absent', { name: 'x' }, {}, false],
    ['invert_match on a miss matches', { name: 'x', string_match: { exact: 'a' }, invert_match: true }, { x: 'b' }, true],
    ['invert_match on a hit fails', { name: 'x', string_match: { exact: 'a' }, invert_match: true }, { x: 'a' }, false],
    [
      'invert_match with absent header (not present_match) fails',
      { name: 'x', string_match: { exact: 'a' }, invert_match: true },
      {},
      false,
    ],
    ['invert present_match with absent header matches', { name: 'x', present_match: true, invert_match: true }, {}, true],
    [
      'treat_missing_header_as_empty evaluates ""',
      { name: 'x', string_match: { exact: '' }, treat_missing_header_as_empty: true },
      {},
      true,
    ],
    [
      'treat_missing + invert: "" vs exact a → match',
      { name: 'x', string_match: { exact: 'a' }, invert_match: true, treat_missing_header_as_empty: true },
      {},
      true,
    ],
    ['names are case-insensitive', { name: 'End-User', string_match: { exact: 'jason' } }, { 'end-user': 'jason' }, true],
  ];
  for (const [name, m, headers, want] of cases) it(name, () => expect(matchHeader(m as never, H(headers)).match).toBe(want));

  it('reports why: header absent', () => {
    expect(matchHeader({ name: 'end-user', string_match: { exact: 'jason' } }, H({}))).toEqual({
      match: false,
      reason: 'header end-user absent',
    });
  });
  it('reports why: value mismatch', () => {
    expect(matchHeader({ name: 'end-user', string_match: { exact: 'jason' } }, H({ 'end-user': 'bob' })).reason).toBe(
      'header end-user value "bob" does not match exact "jason"',
    );
  });
  it('all matchers must match (RouteMatch.headers is an AND)', () => {
    const list = [
      { name: 'a', string_match: { exact: '1' } },
      { name: 'b', string_match: { exact: '2' } },
    ];
    expect(matchHeaders(list, H({ a: '1', b: '2' })).match).toBe(true);
    expect(matchHeaders(list, H({ a: '1' })).reason).toBe('header b absent');
  });
});

describe('query parameters (ConfigUtility::QueryParameterMatcher)', () => {
  it('parses and URL-decodes, first value wins', () => {
    expect([...parseQuery('a=1&b=x%20y&a=2&c')]).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', ''],
    ]);
  });
  it('string_match on the value', () => {
    const q = parseQuery('v=beta');
    expect(matchQueryParam({ name: 'v', string_match: { exact: 'beta' } }, q).match).toBe(true);
    expect(matchQueryParam({ name: 'v', string_match: { exact: 'alpha' } }, q).match).toBe(false);
    expect(matchQueryParam({ name: 'w', string_match: { exact: 'beta' } }, q).reason).toBe('query parameter w absent');
  });
  it('present_match requires presence', () => {
    expect(matchQueryParam({ name: 'v', present_match: true }, parseQuery('v')).match).toBe(true);
    expect(matchQueryParam({ name: 'v', present_match: true }, parseQuery('w=1')).match).toBe(false);
  });
});
