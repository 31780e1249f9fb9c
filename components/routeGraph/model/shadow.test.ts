// Dead routes. Envoy picks the first route of a virtual host whose match accepts the request
// (source/common/router/config_impl.cc VirtualHostImpl::getRouteFromEntries), so a later route is dead
// exactly when an earlier one accepts every request it accepts. Inputs are hand-built Envoy route JSON.
import { describe, expect, it } from 'vitest';
import { matchCovers, shadowedRoutes } from './shadow';

const route = (match: Record<string, unknown>, cluster = 'c') => ({ match, route: { cluster } });
const jason = { name: 'end-user', string_match: { exact: 'jason' } };

describe('shadowedRoutes', () => {
  it('an earlier catch-all (prefix /, no other condition) shadows everything after it, and says so', () => {
    const s = shadowedRoutes([
      route({ prefix: '/api' }),
      route({ prefix: '/' }),
      route({ path: '/x' }),
      route({ prefix: '/', headers: [jason] }),
    ]);
    expect([...s.keys()]).toEqual([2, 3]);
    expect(s.get(2)).toEqual({ by: 1, reason: expect.stringContaining('catch-all') });
    expect(s.get(3)?.by).toBe(1);
  });

  it("Istio's header route before the default route: both reachable (jason-v2-v3 shape)", () => {
    expect(shadowedRoutes([route({ prefix: '/', case_sensitive: true, headers: [jason] }), route({ prefix: '/' })]).size).toBe(0);
  });

  it('an identical earlier match shadows, naming the first route that takes the request', () => {
    const s = shadowedRoutes([
      route({ prefix: '/a', headers: [jason] }),
      route({ prefix: '/a', headers: [jason] }, 'other'),
      route({ headers: [jason], prefix: '/a' }),
    ]);
    expect(s.get(1)).toEqual({ by: 0, reason: expect.stringContaining('identical') });
    expect(s.get(2)?.by).toBe(0); // key order does not matter
  });

  it('an earlier safe_regex shadows a later exact path it full-matches (RE2 full match, as Envoy), not one it only partly matches', () => {
    // Envoy RegexRouteEntryImpl: the regex must match the whole path; case_sensitive does not apply to it.
    const s = shadowedRoutes([
      route({ safe_regex: { regex: '/api/(v1|v2)/.*' } }),
      route({ path: '/api/v1/users' }),
      route({ path: '/x/api/v1/users' }),
    ]);
    expect(s.get(1)).toEqual({ by: 0, reason: expect.stringContaining('more general') });
    expect(s.get(2)).toBeUndefined();
    // A case-insensitive exact path also accepts /API/V1/USERS, which this regex does not.
    expect(shadowedRoutes([route({ safe_regex: { regex: '/api/.*' } }), route({ path: '/api/v1', case_sensitive: false })]).size).toBe(0);
  });

  it('a more specific earlier route does not shadow a more general later one', () => {
    expect(shadowedRoutes([route({ prefix: '/api/v1' }), route({ prefix: '/api' }), route({ path: '/api/v1' })]).get(1)).toBeUndefined();
    expect(shadowedRoutes([route({ prefix: '/api/v1' }), route({ prefix: '/api' }), route({ path: '/api/v1' })]).get(2)?.by).toBe(0);
  });

  it('a runtime_fraction on the earlier route lets requests through: not shadowed', () => {
    const rf = { default_value: { numerator: 50 }, runtime_key: 'k' };
    expect(shadowedRoutes([route({ prefix: '/', runtime_fraction: rf }), route({ prefix: '/' })]).size).toBe(0);
  });

  it('routes without a match, or non-object entries, are ignored rather than thrown on', () => {
    expect(shadowedRoutes([null, 'x', { route: {} }, route({ prefix: '/' }), { route: {} }]).size).toBe(0);
  });
});

describe('matchCovers', () => {
  it('prefix covers longer prefixes and paths under it (RouteMatch.prefix is a string prefix)', () => {
    expect(matchCovers({ prefix: '/api' }, { prefix: '/apiv2' })).toBe(true);
    expect(matchCovers({ prefix: '/api' }, { path: '/api/x' })).toBe(true);
    expect(matchCovers({ prefix: '/api' }, { prefix: '/ap' })).toBe(false);
  });

  it('an exact path covers only the same path', () => {
    expect(matchCovers({ path: '/a' }, { path: '/a' })).toBe(true);
    expect(matchCovers({ path: '/a' }, { prefix: '/a' })).toBe(false);
  });

  it('case: a case-sensitive outer does not cover a case-insensitive inner; a case-insensitive outer folds case', () => {
    expect(matchCovers({ prefix: '/api' }, { prefix: '/api', case_sensitive: false })).toBe(false);
    expect(matchCovers({ prefix: '/API', case_sensitive: false }, { prefix: '/api/x' })).toBe(true);
  });

  it('path_separated_prefix /api covers /api and /api/… but not prefix /api (which also takes /apix)', () => {
    expect(matchCovers({ path_separated_prefix: '/api' }, { path: '/api' })).toBe(true);
    expect(matchCovers({ path_separated_prefix: '/api' }, { prefix: '/api/v1' })).toBe(true);
    expect(matchCovers({ path_separated_prefix: '/api' }, { prefix: '/api' })).toBe(false);
  });

  it('header and query conditions: the outer ones must all be among the inner ones', () => {
    const q = { name: 'debug', present_match: true };
    expect(matchCovers({ prefix: '/' }, { prefix: '/', headers: [jason] })).toBe(true);
    expect(matchCovers({ prefix: '/', headers: [jason] }, { prefix: '/' })).toBe(false);
    expect(matchCovers({ prefix: '/', query_parameters: [q] }, { prefix: '/x', headers: [jason], query_parameters: [q] })).toBe(true);
    expect(matchCovers({ prefix: '/', headers: [jason] }, { prefix: '/', headers: [{ ...jason, invert_match: true }] })).toBe(false);
  });

  it('a regex covers an identical regex and an exact path it full-matches (RE2), nothing else; other conditions (grpc) must be shared', () => {
    expect(matchCovers({ safe_regex: { regex: '/a.*' } }, { safe_regex: { regex: '/a.*' } })).toBe(true);
    expect(matchCovers({ safe_regex: { regex: '/a.*' } }, { path: '/ab' })).toBe(true);
    expect(matchCovers({ safe_regex: { regex: '/a.*' } }, { path: '/b' })).toBe(false);
    expect(matchCovers({ safe_regex: { regex: '/a.*' } }, { prefix: '/ab' })).toBe(false);
    expect(matchCovers({ prefix: '/', grpc: {} }, { prefix: '/x' })).toBe(false);
    expect(matchCovers({ prefix: '/', grpc: {} }, { prefix: '/x', grpc: {} })).toBe(true);
  });
});
