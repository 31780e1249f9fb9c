// The optional bearer token (`meshscope serve --auth-token-file F` or MESHSCOPE_AUTH_TOKEN): how a
// request proves it has it. API clients send `Authorization: Bearer TOKEN`; a browser logs in once and
// then carries an HttpOnly, SameSite=Strict session cookie derived from the token (the cookie never
// holds the token itself). Every comparison is constant-time. Used by proxy.ts for UI and API, and by
// the apply endpoints, which require the token even when the UI does not (DESIGN.md §6).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Request header proxy.ts sets (overwriting any the client sent): '1' when the caller proved the token. */
export const AUTHENTICATED_HEADER = 'x-meshscope-authenticated';

/** The session cookie a browser gets after logging in. */
export const AUTH_COOKIE = 'meshscope_session';

/** Anything with Web `Headers` (a Request, a NextRequest). */
export interface HasHeaders {
  readonly headers: Headers;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time equality of two secrets (hashed first, so their lengths leak nothing either). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The token of an `Authorization: Bearer TOKEN` header (scheme case-insensitive, RFC 6750 §2.1). */
export function bearerToken(headers: Headers): string | undefined {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get('authorization') ?? '');
  return m?.[1];
}

/**
 * Whether the request carries `Authorization: Bearer <token>`. False when no token is configured:
 * callers that must always be protected (apply) then refuse everything rather than allow it.
 */
export function checkBearer(req: HasHeaders, token: string | undefined): boolean {
  if (!token) return false;
  const given = bearerToken(req.headers);
  return given !== undefined && secretsEqual(given, token);
}

/** The session cookie's value for a token: an HMAC of it, so a leaked cookie does not reveal the token. */
export const sessionValue = (token: string): string => createHmac('sha256', token).update('meshscope-session-v1').digest('base64url');

/** A cookie's value from a `Cookie` header (first occurrence). */
export function cookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Bearer header or session cookie. With no token configured, every request is authenticated. */
export function isAuthenticated(req: HasHeaders, token: string | undefined): boolean {
  if (!token) return true;
  if (checkBearer(req, token)) return true;
  const c = cookie(req.headers, AUTH_COOKIE);
  return c !== undefined && secretsEqual(c, sessionValue(token));
}

/** `Set-Cookie` for a browser that proved it has the token (Secure when served over https). */
export function sessionCookie(token: string, secure: boolean): string {
  return `${AUTH_COOKIE}=${sessionValue(token)}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** A fresh random token (what `serve` prints for the apply endpoints when no token is configured). */
export const randomToken = (): string => randomBytes(24).toString('base64url');
