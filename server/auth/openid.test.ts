// `--auth openid` (issue #26 §1): the authorization-code flow with PKCE against a loopback provider that
// checks the S256 challenge (RFC 7636 §4.6) and signs the ID token; the claims map to a Kubernetes user as
// kube-apiserver's OIDC authenticator does by default (--oidc-username-claim=sub prefixed with the issuer;
// an email claim unprefixed), groups from `groups`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openidCallback, openidStart } from '../api/openidRoutes';
import { AccessControl } from './access';
import { openSession, SESSION_COOKIE } from './session';
import { authSettings } from './settings';
import { FakeIssuer } from './testing/fakeIssuer';
import type { Reviews } from './reviews';

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'http://127.0.0.1:3999';
const noReviews: Reviews = { tokenReview: async () => ({ authenticated: false }), canListPods: async () => false };
let issuer: FakeIssuer;
let access: AccessControl;

beforeAll(async () => {
  issuer = new FakeIssuer();
  await issuer.start();
  access = new AccessControl(authSettings({ auth: 'openid', openidIssuer: issuer.url, openidClientId: issuer.clientId }), noReviews);
});
afterAll(async () => {
  await issuer.stop();
});

const now = () => Math.floor(Date.now() / 1000);
const cookieOf = (cookies: string[], name: string) =>
  cookies
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);

/** Start, follow the provider's redirect like a browser, and finish with the flow cookie it set. */
async function signIn(tamper?: (callback: URL) => URL) {
  const start = await openidStart(access, { origin: ORIGIN, next: '/proxies?x=1', secret: SECRET, nowSec: now(), secure: false });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.location ?? '');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/api/auth/openid/callback`);
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location') ?? '');
  const flow = cookieOf(start.cookies, 'meshscope_oidc');
  return openidCallback(access, tamper ? tamper(callback) : callback, flow, { secret: SECRET, nowSec: now(), secure: false });
}

describe('OpenID Connect sign-in', () => {
  it('code + PKCE → a session for the email claim with its groups, and a same-origin page on to `next`', async () => {
    const done = await signIn();
    expect(done.status).toBe(200);
    expect(done.body).toContain('url=/proxies?x=1');
    const session = openSession(cookieOf(done.cookies, SESSION_COOKIE), SECRET, now());
    expect(session).toMatchObject({ user: 'carol@example.com', groups: ['shop-team'], via: 'openid' });
    expect(done.cookies.join('\n')).toMatch(/meshscope_oidc=; Path=\/api\/auth\/openid; HttpOnly; SameSite=Lax; Max-Age=0/);
  });

  it("without an email claim the user is ISSUER#sub (kube-apiserver's default prefixing)", async () => {
    issuer.user = { sub: 'dave', groups: [] };
    const done = await signIn();
    expect(openSession(cookieOf(done.cookies, SESSION_COOKIE), SECRET, now())?.user).toBe(`${issuer.url}#dave`);
    issuer.user = { sub: 'u-1', email: 'carol@example.com', groups: ['shop-team'] };
  });

  it('a changed state, or no flow cookie, is refused with no session', async () => {
    const bad = await signIn((u) => {
      u.searchParams.set('state', 'forged');
      return u;
    });
    expect(bad.status).toBe(401);
    expect(cookieOf(bad.cookies, SESSION_COOKIE)).toBeUndefined();
    const start = await openidStart(access, { origin: ORIGIN, next: '/', secret: SECRET, nowSec: now(), secure: false });
    const back = await fetch(new URL(start.headers.location ?? ''), { redirect: 'manual' });
    const noCookie = await openidCallback(access, new URL(back.headers.get('location') ?? ''), undefined, {
      secret: SECRET,
      nowSec: now(),
      secure: false,
    });
    expect(noCookie.status).toBe(401);
  });

  it('`next` can only be a same-origin path', async () => {
    const start = await openidStart(access, { origin: ORIGIN, next: '//evil.example/x', secret: SECRET, nowSec: now(), secure: false });
    const back = await fetch(new URL(start.headers.location ?? ''), { redirect: 'manual' });
    const done = await openidCallback(access, new URL(back.headers.get('location') ?? ''), cookieOf(start.cookies, 'meshscope_oidc'), {
      secret: SECRET,
      nowSec: now(),
      secure: false,
    });
    expect(done.body).toContain('url=/"');
  });
});
