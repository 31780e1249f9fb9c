// Route matching per Envoy's RouteMatch docs and source/common/router/config_impl.cc: prefix is a string
// prefix of the path without query/fragment; path is exact; safe_regex must match the whole path;
// path_separated_prefix matches the prefix followed by end or '/'; case_sensitive:false folds case for
// prefix/path; connect_matcher matches CONNECT; runtime_fraction gates with its default percentage.
import { describe, expect, it } from 'vitest';
import { matchRoute, runtimeProbability } from './routeMatch';
import { normalizeRequest, type SimRequest } from './types';
import type { EnvoyJson } from '../envoy/encode';

const ctx = (r: Partial<SimRequest>) => normalizeRequest({ mode: 'outbound', port: 80, ...r });
const route = (match: Record<string, unknown>) => ({ match, route: { cluster: 'c' } }) as unknown as EnvoyJson;

describe('matchRoute path specifiers', () => {
  const cases: [string, Record<string, unknown>, string, boolean][] = [
    ['prefix hit', { prefix: '/api' }, '/api/v1', true],
    ['prefix is a plain string prefix (not segment-aware)', { prefix: '/api' }, '/apiv2', true],
    ['prefix miss', { prefix: '/api' }, '/web', false],
    ['prefix ignores the query string', { prefix: '/a?x' }, '/a?x=1', false],
    ['prefix case-sensitive by default', { prefix: '/API' }, '/api', false],
    ['prefix case_sensitive false', { prefix: '/API', case_sensitive: false }, '/api/x', true],
    ['path exact hit, query ignored', { path: '/login' }, '/login?next=/', true],
    ['path exact miss on longer path', { path: '/login' }, '/login/x', false],
    ['path case_sensitive false', { path: '/Login', case_sensitive: false }, '/LOGIN', true],
    ['safe_regex full match', { safe_regex: { regex: '/item/[0-9]+' } }, '/item/42', true],
    ['safe_regex is anchored', { safe_regex: { regex: '/item/[0-9]+' } }, '/item/42/x', false],
    ['safe_regex ignores query', { safe_regex: { regex: '/item/[0-9]+' } }, '/item/42?a=b', true],
    ['path_separated_prefix exact', { path_separated_prefix: '/api' }, '/api', true],
    ['path_separated_prefix segment', { path_separated_prefix: '/api' }, '/api/x', true],
    ['path_separated_prefix not a segment', { path_separated_prefix: '/api' }, '/apix', false],
    ['path_separated_prefix with query', { path_separated_prefix: '/api' }, '/api?x=1', true],
  ];
  for (const [name, match, path, want] of cases) it(name, () => expect(matchRoute(route(match), ctx({ path })).match).toBe(want));

  it('connect_matcher only matches CONNECT', () => {
    expect(matchRoute(route({ connect_matcher: {} }), ctx({ method: 'CONNECT' })).match).toBe(true);
    expect(matchRoute(route({ connect_matcher: {} }), ctx({ method: 'GET' })).reason).toBe('method GET is not CONNECT');
  });
  it('reason names the path and the specifier', () => {
    expect(matchRoute(route({ prefix: '/api' }), ctx({ path: '/web' })).reason).toBe('path /web does not match prefix /api');
  });
});

describe('matchRoute other conditions', () => {
  it('headers are matched after the path, :method pseudo header included', () => {
    const r = route({ prefix: '/', headers: [{ name: ':method', string_match: { exact: 'POST' } }] });
    expect(matchRoute(r, ctx({ method: 'post' })).match).toBe(true);
    expect(matchRoute(r, ctx({ method: 'GET' })).reason).toBe('header :method value "GET" does not match exact "POST"');
  });
  it(':authority and :scheme pseudo headers', () => {
    const r = route({
      prefix: '/',
      headers: [
        { name: ':authority', string_match: { exact: 'a.example.com' } },
        { name: ':scheme', string_match: { exact: 'https' } },
      ],
    });
    expect(matchRoute(r, ctx({ host: 'a.example.com', tls: 'tls' })).match).toBe(true);
    expect(matchRoute(r, ctx({ host: 'a.example.com' })).match).toBe(false);
  });
  it(':path pseudo header carries the query string', () => {
    const r = route({ prefix: '/', headers: [{ name: ':path', string_match: { exact: '/a?b=1' } }] });
    expect(matchRoute(r, ctx({ path: '/a?b=1' })).match).toBe(true);
  });
  it('query_parameters must all match', () => {
    const r = route({ prefix: '/', query_parameters: [{ name: 'v', string_match: { exact: '2' } }] });
    expect(matchRoute(r, ctx({ path: '/x?v=2' })).match).toBe(true);
    expect(matchRoute(r, ctx({ path: '/x?v=1' })).match).toBe(false);
  });
  it('grpc requires an application/grpc content-type', () => {
    const r = route({ prefix: '/', grpc: {} });
    expect(matchRoute(r, ctx({ headers: { 'content-type': 'application/grpc+proto' } })).match).toBe(true);
    expect(matchRoute(r, ctx({})).match).toBe(false);
  });
  it('runtime_fraction reports its default probability (FractionalPercent denominators)', () => {
    expect(runtimeProbability({ default_value: { numerator: 25 } })).toBe(0.25);
    expect(runtimeProbability({ default_value: { numerator: 25, denominator: 'TEN_THOUSAND' } })).toBe(0.0025);
    const r = route({ prefix: '/', runtime_fraction: { default_value: { numerator: 10, denominator: 'HUNDRED' }, runtime_key: 'k' } });
    expect(matchRoute(r, ctx({}))).toEqual({ match: true, probability: 0.1 });
    const zero = route({ prefix: '/', runtime_fraction: { default_value: { numerator: 0 } } });
    expect(matchRoute(zero, ctx({})).match).toBe(false);
  });
  it('invalid or missing match never throws', () => {
    expect(matchRoute({}, ctx({})).match).toBe(false);
    expect(matchRoute(route({ safe_regex: { regex: '(' } }), ctx({})).match).toBe(false);
  });
});
