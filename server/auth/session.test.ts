// Sessions and CSRF (issue #26 §1, §4): a session is accepted only under our signature and before its
// expiry; the CSRF token is bound to one session (OWASP's synchronizer-token pattern, HMAC variant), so a
// token of one session never passes for another.
import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, csrfMatches, csrfToken, openSession, SESSION_COOKIE, sealSession, sessionCookie } from './session';

const SECRET = 'a-test-secret-of-32-characters!!';
const s = { sid: 'sid-1', user: 'alice', groups: ['dev'], exp: 2_000, via: 'token' as const };

describe('sealed sessions', () => {
  it('opens what it sealed, before expiry only', () => {
    const v = sealSession(s, SECRET);
    expect(openSession(v, SECRET, 1_999)).toEqual(s);
    expect(openSession(v, SECRET, 2_000)).toBeUndefined();
  });

  it('refuses another key, a changed payload, a truncated or garbage value', () => {
    const v = sealSession(s, SECRET);
    expect(openSession(v, 'another-secret-of-32-characters!', 1)).toBeUndefined();
    const [payload, sig] = v.split('.');
    const forged = Buffer.from(JSON.stringify({ ...s, user: 'admin' })).toString('base64url');
    expect(openSession(`${forged}.${sig}`, SECRET, 1)).toBeUndefined();
    expect(openSession(`${payload}.`, SECRET, 1)).toBeUndefined();
    expect(openSession('garbage', SECRET, 1)).toBeUndefined();
    expect(openSession(undefined, SECRET, 1)).toBeUndefined();
  });

  it('cookies are HttpOnly, SameSite=Strict, Secure only over TLS; sign-out clears it', () => {
    const c = sessionCookie('v', false);
    expect(c).toMatch(new RegExp(`^${SESSION_COOKIE}=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=\\d+$`));
    expect(sessionCookie('v', true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toMatch(/Max-Age=0/);
  });
});

describe('CSRF tokens', () => {
  it('match their own session only', () => {
    const t = csrfToken(SECRET, 'sid:1');
    expect(csrfMatches(SECRET, 'sid:1', t)).toBe(true);
    expect(csrfMatches(SECRET, 'sid:2', t)).toBe(false);
    expect(csrfMatches(SECRET, 'sid:1', null)).toBe(false);
    expect(csrfMatches(SECRET, 'sid:1', `${t}x`)).toBe(false);
  });
});
