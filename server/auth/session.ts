// Sessions as signed cookies (no server-side store, so any replica answers): the cookie holds who the
// user is, when the session ends and its id, under an HMAC-SHA256 of the process's session secret. The
// CSRF token is derived from the session id with the same key, so it is bound to one session and
// changes at every sign-in (no fixation: a session id is never taken from the client). Sign-out clears
// the cookie and revokes the id in this process (server/auth/access.ts keeps the revoked ids until they
// expire). Nothing here reads a clock: callers pass `nowSec`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'meshscope_auth';
/** Eight hours, as a working day: the user signs in again after that. */
export const SESSION_TTL_SEC = 8 * 60 * 60;

export interface Session {
  /** Random, made at sign-in. */
  sid: string;
  user: string;
  groups: string[];
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** How the user proved who they are. */
  via: 'token' | 'openid';
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString('base64url');
const mac = (secret: string, data: string): Buffer => createHmac('sha256', secret).update(data, 'utf8').digest();

export const newSessionId = (): string => randomBytes(18).toString('base64url');

/** `payload.signature`, both base64url. */
export function sealSession(s: Session, secret: string): string {
  const payload = b64(JSON.stringify(s));
  return `${payload}.${b64(mac(secret, `session|${payload}`))}`;
}

/** The session a cookie value holds, when its signature is ours and it has not expired. */
export function openSession(value: string | undefined, secret: string, nowSec: number): Session | undefined {
  if (!value || value.length > 8192) return undefined;
  const dot = value.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const want = mac(secret, `session|${payload}`);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
  try {
    const s = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session;
    if (typeof s.sid !== 'string' || typeof s.user !== 'string' || !Array.isArray(s.groups) || typeof s.exp !== 'number') return undefined;
    return s.exp > nowSec ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The CSRF token of a session (or of a header-mode identity): bound to it, unguessable without the key. */
export const csrfToken = (secret: string, bindTo: string): string => b64(mac(secret, `csrf|${bindTo}`));

/** Constant-time comparison of a presented CSRF token. */
export function csrfMatches(secret: string, bindTo: string, given: string | null): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(csrfToken(secret, bindTo));
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sessionCookie(value: string, secure: boolean, maxAgeSec = SESSION_TTL_SEC): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSec}${secure ? '; Secure' : ''}`;
}

export const clearedSessionCookie = (secure: boolean): string =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
