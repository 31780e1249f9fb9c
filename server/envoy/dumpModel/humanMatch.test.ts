// Envoy RouteMatch semantics (api/envoy/config/route/v3/route_components.proto RouteMatch/HeaderMatcher):
// prefix matches any path starting with it, path is exact, path_separated_prefix matches the prefix
// itself or the prefix followed by "/", :method is a pseudo-header; Istio writes headers as string_match.
import { describe, expect, it } from 'vitest';
import { humanHeader, humanMatch } from './humanMatch';

describe('humanMatch', () => {
  it('the issue example: GET /api/* with end-user=jason', () => {
    expect(
      humanMatch({
        prefix: '/api/',
        headers: [
          { name: ':method', string_match: { exact: 'GET' } },
          { name: 'end-user', string_match: { exact: 'jason' } },
        ],
      }),
    ).toBe('GET /api/* with end-user=jason');
  });

  it('prefix / is everything; exact path; path_separated_prefix; regex', () => {
    expect(humanMatch({ prefix: '/' })).toBe('/*');
    expect(humanMatch(undefined)).toBe('/*');
    expect(humanMatch({ path: '/productpage' })).toBe('/productpage');
    expect(humanMatch({ path_separated_prefix: '/api' })).toBe('/api, /api/*');
    expect(humanMatch({ safe_regex: { regex: '/v[0-9]+/.*' } })).toBe('~/v[0-9]+/.*');
  });

  it('case_sensitive false, query parameters and the legacy header fields', () => {
    expect(
      humanMatch({
        prefix: '/a',
        case_sensitive: false,
        query_parameters: [
          { name: 'debug', present_match: true },
          { name: 'v', string_match: { exact: '2' } },
        ],
      }),
    ).toBe('/a* (any case) ?debug present&v=2');
    expect(humanHeader({ name: 'x-env', prefix_match: 'prod' })).toBe('x-env^=prod');
    expect(humanHeader({ name: 'x-env', safe_regex_match: { regex: 'p.*' } })).toBe('x-env~p.*');
  });

  it('inverted and presence matchers (Istio withoutHeaders → invert_match)', () => {
    expect(humanHeader({ name: 'x-debug', present_match: true, invert_match: true })).toBe('not x-debug present');
    expect(humanHeader({ name: 'end-user', string_match: { exact: 'jason' }, invert_match: true })).toBe('not end-user=jason');
    // an inverted :method is a header condition, not the method
    expect(humanMatch({ prefix: '/', headers: [{ name: ':method', string_match: { exact: 'GET' }, invert_match: true }] })).toBe(
      '/* with not :method=GET',
    );
  });
});
