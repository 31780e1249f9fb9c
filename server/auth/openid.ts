// OpenID Connect sign-in (`serve --auth openid`): the authorization-code flow with PKCE (RFC 7636, S256)
// through openid-client. `start` makes the verifier, state and nonce, keeps them in a short-lived signed
// cookie (SameSite=Lax: the identity provider's redirect back is a cross-site navigation) and sends the
// browser to the provider; `finish` checks state, exchanges the code with the verifier, validates the ID
// token (issuer, audience, signature, nonce: openid-client) and maps its claims to a Kubernetes user as the
// API server's OIDC authenticator does by default: `email` when present (no prefix), else `ISSUER#sub`;
// groups from the `groups` claim. That user is what SubjectAccessReview and impersonation then use.
import * as oidc from 'openid-client';
import { readFileSync } from 'node:fs';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthSettings } from './settings';

export const OIDC_COOKIE = 'meshscope_oidc';
/** Ten minutes to come back from the identity provider. */
export const OIDC_FLOW_TTL_SEC = 600;
export const OIDC_CALLBACK_PATH = '/api/auth/openid/callback';

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
  next: string;
  exp: number;
}

const sign = (secret: string, payload: string): string => createHmac('sha256', secret).update(`oidc|${payload}`).digest('base64url');

function sealFlow(f: Flow, secret: string): string {
  const p = Buffer.from(JSON.stringify(f)).toString('base64url');
  return `${p}.${sign(secret, p)}`;
}

function openFlow(v: string | undefined, secret: string, nowSec: number): Flow | undefined {
  if (!v) return undefined;
  const [p, sig] = v.split('.');
  if (!p || !sig) return undefined;
  const a = Buffer.from(sig);
  const b = Buffer.from(sign(secret, p));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
  try {
    const f = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Flow;
    return f.exp > nowSec ? f : undefined;
  } catch {
    return undefined;
  }
}

/** The provider's configuration (discovery document), plain http allowed only for a loopback issuer. */
export async function providerConfig(s: AuthSettings): Promise<oidc.Configuration> {
  const o = s.openid;
  if (!o) throw new Error('--auth openid needs --openid-issuer and --openid-client-id');
  const secret = o.clientSecretFile ? readFileSync(o.clientSecretFile, 'utf8').trim() : undefined;
  const url = new URL(o.issuer);
  const insecure = url.protocol === 'http:';
  return oidc.discovery(url, o.clientId, secret, secret ? undefined : oidc.None(), {
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    timeout: 10,
  });
}

export interface StartedFlow {
  location: string;
  setCookie: string;
}

export async function startOpenid(
  config: oidc.Configuration,
  opts: { redirectUri: string; next: string; secret: string; nowSec: number; secure: boolean },
): Promise<StartedFlow> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: opts.redirectUri,
    scope: 'openid email profile groups',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const flow = sealFlow({ verifier, state, nonce, next: opts.next, exp: opts.nowSec + OIDC_FLOW_TTL_SEC }, opts.secret);
  return {
    location: url.href,
    setCookie: `${OIDC_COOKIE}=${flow}; Path=/api/auth/openid; HttpOnly; SameSite=Lax; Max-Age=${OIDC_FLOW_TTL_SEC}${opts.secure ? '; Secure' : ''}`,
  };
}

export type FinishedFlow = { user: string; groups: string[]; next: string } | { error: string };

/** Kubernetes' default OIDC user mapping: `email`, else `ISSUER#sub`. */
export function kubeUser(claims: Record<string, unknown>, issuer: string): { user: string; groups: string[] } | undefined {
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  const user = email ?? (sub ? `${issuer}#${sub}` : undefined);
  if (!user) return undefined;
  const g = claims.groups;
  const groups = Array.isArray(g) ? g.filter((x): x is string => typeof x === 'string') : typeof g === 'string' ? [g] : [];
  return { user, groups };
}

export async function finishOpenid(
  config: oidc.Configuration,
  callbackUrl: URL,
  cookieValue: string | undefined,
  opts: { secret: string; nowSec: number; issuer: string },
): Promise<FinishedFlow> {
  const flow = openFlow(cookieValue, opts.secret, opts.nowSec);
  if (!flow) return { error: 'the sign-in took too long or did not start here: sign in again' };
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const who = kubeUser((tokens.claims() ?? {}) as Record<string, unknown>, opts.issuer);
    if (!who) return { error: 'the ID token names no user (no email or sub claim)' };
    return { ...who, next: flow.next };
  } catch (e) {
    return { error: `sign-in with the identity provider failed: ${(e as Error).message}` };
  }
}

export const clearedFlowCookie = (secure: boolean): string =>
  `${OIDC_COOKIE}=; Path=/api/auth/openid; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
