// What proxy.ts tells the route handlers about the caller, in request headers it always overwrites (a
// client can never set them): how the caller signed in and, for sessions and header sign-in, who it is.
// Bearer tokens are checked by the route (a TokenReview, cached by the runtime: server/auth/access.ts).
import type { AuthSettings } from './settings';
import { PEER_HEADER, cidrList, peerTrusted } from './peer';
import { csrfMatches, openSession, SESSION_COOKIE, type Session } from './session';

export const VIA_HEADER = 'x-meshscope-via';
export const USER_HEADER = 'x-meshscope-user';
export const GROUPS_HEADER = 'x-meshscope-groups';
export const SID_HEADER = 'x-meshscope-sid';
/** Every header the proxy owns: stripped from what the client sent before the proxy sets its own. */
export const OWNED_HEADERS = [VIA_HEADER, USER_HEADER, GROUPS_HEADER, SID_HEADER] as const;

export type Principal =
  | { via: 'session'; user: string; groups: string[]; sid: string }
  | { via: 'header'; user: string; groups: string[] }
  | { via: 'bearer' };

/** The value of a cookie in a `Cookie` header (first occurrence). */
export function cookieValue(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** oauth2-proxy sends groups comma-separated; repeated headers arrive joined the same way. */
export const splitGroups = (v: string | null): string[] =>
  (v ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);

export type Authentication =
  | { principal: Principal; status?: undefined; error?: undefined }
  | { status: 401; error: string; principal?: undefined }
  | { principal?: undefined; status?: undefined; error?: undefined };

/**
 * Who the request says it is, by the mode's rules. `{}`: no credentials at all (the caller decides:
 * public path, sign-in page, or 401). A header sign-in from an untrusted peer is refused outright, as is
 * a bearer token on a request that also carries a session (one identity per request).
 */
export function authenticate(headers: Headers, s: AuthSettings, secret: string, nowSec: number): Authentication {
  const bearer = /^bearer[ \t]+\S+/i.test(headers.get('authorization') ?? '');
  if (s.mode === 'header') {
    const user = headers.get(s.userHeader)?.trim();
    if (!user) return bearer ? { principal: { via: 'bearer' } } : {};
    if (!peerTrusted(cidrList(s.trustedCidrs), headers.get(PEER_HEADER)))
      return { status: 401, error: `${s.userHeader} is only trusted from --auth-header-trusted-cidrs; this peer is not one of them` };
    return { principal: { via: 'header', user, groups: splitGroups(headers.get(s.groupsHeader)) } };
  }
  const session: Session | undefined = openSession(cookieValue(headers, SESSION_COOKIE), secret, nowSec);
  if (session) return { principal: { via: 'session', user: session.user, groups: session.groups, sid: session.sid } };
  if (bearer) return { principal: { via: 'bearer' } };
  return {};
}

/** What a CSRF token is bound to: the session id, or the header identity. */
export function csrfBinding(p: Principal): string | undefined {
  if (p.via === 'session') return `sid:${p.sid}`;
  if (p.via === 'header') return `header:${p.user}|${p.groups.join(',')}`;
  return undefined;
}

/** Sessions and header sign-in ride on ambient credentials: their writes need the CSRF token. Bearer calls do not. */
export function csrfOk(p: Principal, headers: Headers, secret: string): boolean {
  const bind = csrfBinding(p);
  return bind === undefined || csrfMatches(secret, bind, headers.get('x-csrf-token'));
}

/** The identity headers for the route, from a principal. */
export function identityHeaders(p: Principal): Record<string, string> {
  if (p.via === 'bearer') return { [VIA_HEADER]: 'bearer' };
  return {
    [VIA_HEADER]: p.via,
    [USER_HEADER]: encodeURIComponent(p.user),
    [GROUPS_HEADER]: encodeURIComponent(JSON.stringify(p.groups)),
    ...(p.via === 'session' ? { [SID_HEADER]: p.sid } : {}),
  };
}

/** The principal proxy.ts forwarded (undefined: none, i.e. `--auth none`). */
export function forwardedPrincipal(headers: Headers): Principal | undefined {
  const via = headers.get(VIA_HEADER);
  if (via === 'bearer') return { via };
  if (via !== 'session' && via !== 'header') return undefined;
  let user = '';
  let groups: string[] = [];
  try {
    user = decodeURIComponent(headers.get(USER_HEADER) ?? '');
    const g = JSON.parse(decodeURIComponent(headers.get(GROUPS_HEADER) ?? '[]')) as unknown;
    groups = Array.isArray(g) ? g.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return undefined;
  }
  if (!user) return undefined;
  return via === 'session' ? { via, user, groups, sid: headers.get(SID_HEADER) ?? '' } : { via, user, groups };
}
