// Sign-in endpoints (`serve --auth token|header|openid`; docs/security.md), transport-free:
//   POST /api/auth/login {"token"} → 200 {user, groups, csrfToken} + the session cookie; 401 and no cookie
//     for a token the cluster does not accept; 429 past the per-address attempt limit.
//   GET /api/auth/session → the same body for a signed-in caller, 401 otherwise.
//   POST /api/auth/logout → the session revoked here and its cookie cleared.
// The session id is made here at every sign-in (never taken from the client), so a planted cookie cannot
// be promoted to a signed-in one; tokens are never logged, echoed or stored.
import type { AccessControl, Viewer } from '../auth/access';
import { csrfBinding, type Principal } from '../auth/identity';
import { clearedSessionCookie, csrfToken, newSessionId, SESSION_TTL_SEC, sealSession, sessionCookie } from '../auth/session';
import type { ApiResult } from './types';

export interface SessionBody {
  user: string;
  groups: string[];
  /** Send it as X-CSRF-Token on every state-changing request (absent for bearer callers, who need none). */
  csrfToken?: string;
}

export interface AuthAnswer {
  result: ApiResult<SessionBody | { error: string } | { signedOut: true }>;
  setCookie?: string;
}

const bad = (status: number, error: string): AuthAnswer => ({ result: { status, body: { error } } });

export async function login(
  access: AccessControl | undefined,
  body: unknown,
  opts: { secret: string; nowSec: number; secure: boolean; peer: string },
): Promise<AuthAnswer> {
  if (access?.settings.mode !== 'token' || !access) return bad(404, 'token sign-in is off: meshscope serve runs with another --auth mode');
  if (!access.allowAttempt(opts.peer)) return bad(429, 'too many sign-in attempts from this address: wait a minute');
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token.trim() === '' || token.length > 16_384 || /\s/.test(token.trim()))
    return bad(400, 'send {"token": "<a Kubernetes bearer token>"}');
  const r = await access.signIn(token.trim());
  if (!r.authenticated || !r.user) return bad(401, `token not accepted: ${r.error ?? 'unauthenticated'}`);
  const sid = newSessionId();
  const groups = r.groups ?? [];
  const sealed = sealSession({ sid, user: r.user, groups, exp: opts.nowSec + SESSION_TTL_SEC, via: 'token' }, opts.secret);
  return {
    result: { status: 200, body: { user: r.user, groups, csrfToken: csrfToken(opts.secret, `sid:${sid}`) } },
    setCookie: sessionCookie(sealed, opts.secure),
  };
}

export function session(
  viewer: Viewer | undefined,
  principal: Principal | undefined,
  secret: string,
): ApiResult<SessionBody | { error: string }> {
  if (!viewer || !principal) return { status: 401, body: { error: 'not signed in' } };
  const bind = csrfBinding(principal);
  return {
    status: 200,
    body: { user: viewer.user, groups: [...viewer.groups], ...(bind ? { csrfToken: csrfToken(secret, bind) } : {}) },
  };
}

export function logout(
  access: AccessControl | undefined,
  principal: Principal | undefined,
  opts: { nowSec: number; secure: boolean },
): AuthAnswer {
  if (access && principal?.via === 'session') access.revoke(principal.sid, opts.nowSec + SESSION_TTL_SEC);
  return { result: { status: 200, body: { signedOut: true } }, setCookie: clearedSessionCookie(opts.secure) };
}
