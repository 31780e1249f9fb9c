// Who a request is (issue #26 §1): header sign-in trusts user headers only from the configured CIDRs (the
// auth-proxy pattern oauth2-proxy documents: its headers are trustworthy only when nothing else can reach
// the upstream); a session cookie is ours or nothing; identity headers round-trip and cannot be spoofed
// by a client because proxy.ts deletes OWNED_HEADERS before setting them.
import { describe, expect, it } from 'vitest';
import { authenticate, csrfOk, forwardedPrincipal, identityHeaders, OWNED_HEADERS } from './identity';
import { cidrList, PEER_HEADER, peerTrusted } from './peer';
import { csrfToken, SESSION_COOKIE, sealSession } from './session';
import { authSettings } from './settings';

const SECRET = 'a-test-secret-of-32-characters!!';
const header = authSettings({ auth: 'header', authHeaderTrustedCidrs: ['10.1.0.0/16', '::1/128'] });
const token = authSettings({ auth: 'token' });

describe('peer CIDRs', () => {
  it('match IPv4, IPv6 and IPv4-mapped IPv6 peers', () => {
    const l = cidrList(['10.1.0.0/16', '::1/128']);
    expect(peerTrusted(l, '10.1.200.3')).toBe(true);
    expect(peerTrusted(l, '::ffff:10.1.0.9')).toBe(true);
    expect(peerTrusted(l, '::1')).toBe(true);
    expect(peerTrusted(l, '10.2.0.1')).toBe(false);
    expect(peerTrusted(l, '')).toBe(false);
    expect(peerTrusted(l, 'not-an-ip')).toBe(false);
  });
});

describe('authenticate', () => {
  it('header mode: the user headers from a trusted peer; a forged header from anywhere else is 401', () => {
    const ok = authenticate(
      new Headers({ 'x-forwarded-user': 'bob', 'x-forwarded-groups': 'dev, shop-admins', [PEER_HEADER]: '10.1.2.3' }),
      header,
      SECRET,
      1,
    );
    expect(ok.principal).toEqual({ via: 'header', user: 'bob', groups: ['dev', 'shop-admins'] });
    const forged = authenticate(new Headers({ 'x-forwarded-user': 'admin', [PEER_HEADER]: '192.0.2.7' }), header, SECRET, 1);
    expect(forged.status).toBe(401);
    expect(authenticate(new Headers({ 'x-forwarded-user': 'admin' }), header, SECRET, 1).status).toBe(401);
    expect(authenticate(new Headers({}), header, SECRET, 1)).toEqual({});
  });

  it('token mode: our session cookie, else a bearer token for the route to review, else nothing', () => {
    const cookie = `${SESSION_COOKIE}=${sealSession({ sid: 's1', user: 'alice', groups: [], exp: 100, via: 'token' }, SECRET)}`;
    expect(authenticate(new Headers({ cookie }), token, SECRET, 50).principal).toEqual({
      via: 'session',
      user: 'alice',
      groups: [],
      sid: 's1',
    });
    expect(authenticate(new Headers({ cookie }), token, SECRET, 100)).toEqual({});
    expect(authenticate(new Headers({ authorization: 'Bearer abc' }), token, SECRET, 1).principal).toEqual({ via: 'bearer' });
    expect(authenticate(new Headers({ cookie: `${SESSION_COOKIE}=forged.sig` }), token, SECRET, 1)).toEqual({});
  });

  it('writes of cookie and header callers need their CSRF token; bearer callers carry no ambient credential', () => {
    const p = { via: 'session' as const, user: 'a', groups: [], sid: 's1' };
    expect(csrfOk(p, new Headers({}), SECRET)).toBe(false);
    expect(csrfOk(p, new Headers({ 'x-csrf-token': csrfToken(SECRET, 'sid:s1') }), SECRET)).toBe(true);
    expect(csrfOk({ via: 'bearer' }, new Headers({}), SECRET)).toBe(true);
  });

  it('identity headers round-trip (names with any characters), and the proxy owns every one of them', () => {
    const p = { via: 'header' as const, user: 'ö, "x"', groups: ['a,b', 'c'] };
    const h = new Headers(identityHeaders(p));
    expect(forwardedPrincipal(h)).toEqual(p);
    for (const k of Object.keys(identityHeaders({ via: 'session', user: 'u', groups: [], sid: 's' }))) expect(OWNED_HEADERS).toContain(k);
    expect(forwardedPrincipal(new Headers({}))).toBeUndefined();
  });
});
