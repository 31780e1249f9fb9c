// Next.js Proxy (Next 16's name for middleware): runs before every page, route and asset. It enforces
// what DESIGN.md §6 calls "closed by default" — URL sanity (414/400), expected Host names (DNS
// rebinding), same-origin JSON for state-changing requests, the optional token, the body limit (413,
// counted while streaming) — and puts the security headers on every response, with a fresh CSP nonce
// that Next.js reads from the request's Content-Security-Policy header and sets on its own scripts.
// The rules live in server/api (httpGuard.ts, auth.ts, http.ts); this file only wires them.
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { type NextRequest, NextResponse } from 'next/server';
import { AUTHENTICATED_HEADER, isAuthenticated, secretsEqual, sessionCookie } from '@/server/api/auth';
import { readLimited } from '@/server/api/http';
import { checkTarget, checkUnsafe, hostAllowed, hostPolicy, isUnsafeMethod, securityHeaders } from '@/server/api/httpGuard';
import { LOGIN_PATH, loginPage, safeNext } from '@/server/api/loginPage';
import { bindAddress, ENV_VAR, maxBodyBytes, parseRuntimeConfig } from '@/server/api/runtimeConfig';
import { authenticate, csrfOk, identityHeaders, OWNED_HEADERS } from '@/server/auth/identity';
import { sessionSecret } from '@/server/auth/secret';
import { authSettings, isMultiUser, type AuthSettings } from '@/server/auth/settings';

/** Reachable without the token: readiness probes (the route then shows only the status). */
const PUBLIC_PATHS = new Set(['/api/healthz']);

const localAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address ?? '')
    .filter(Boolean);

export async function proxy(request: NextRequest): Promise<Response> {
  const { config } = parseRuntimeConfig(process.env[ENV_VAR]);
  const nonce = randomBytes(16).toString('base64');
  const security = securityHeaders(nonce, process.env.NODE_ENV === 'development');
  const json = (status: number, error: string, extra: Record<string, string> = {}): Response =>
    Response.json({ error }, { status, headers: { ...security, 'cache-control': 'no-store', ...extra } });
  const html = (status: number, body: string, extra: Record<string, string> = {}): Response =>
    new Response(body, {
      status,
      headers: { ...security, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...extra },
    });

  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const bad = checkTarget(url.pathname + url.search);
  if (bad) return json(bad.status, bad.error);
  if (!hostAllowed(request.headers.get('host'), hostPolicy(bindAddress(config), config.allowedHosts), localAddresses)) {
    return json(403, 'unexpected Host header: start meshscope with --allowed-host NAME to serve this name');
  }
  // Next.js hands the proxy a copy of the body (capped a little past the limit, next.config.ts) and the
  // route another: counting this one enforces the limit for every route, chunked uploads included.
  const isLogin = url.pathname === LOGIN_PATH;
  const limit = isLogin ? 4096 : maxBodyBytes(config);
  let body: Uint8Array = new Uint8Array(0);
  if (method !== 'GET' && method !== 'HEAD') {
    if (Number(request.headers.get('content-length') ?? 0) > limit) return json(413, `request body is larger than ${limit} bytes`);
    const counted = await readLimited(request.body, limit);
    if (counted.tooLarge) return json(413, `request body is larger than ${limit} bytes`);
    body = counted.bytes;
  }
  const unsafe = checkUnsafe(method, request.headers, { hasBody: body.byteLength > 0, allowForm: isLogin });
  if (unsafe) return json(unsafe.status, unsafe.error);
  const signIn = authSettings(config);
  if (isMultiUser(signIn)) return signedIn(request, url, method, signIn, nonce, security);
  if (isLogin && method === 'POST') return login(request, body, config.authToken, nonce, security);

  const token = config.authToken;
  const authed = isAuthenticated(request, token);
  if (token && !authed && !PUBLIC_PATHS.has(url.pathname)) {
    const secure = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
    const given = url.searchParams.get('token');
    if (method === 'GET' && given !== null) {
      url.searchParams.delete('token');
      const back = safeNext(url.pathname + url.search);
      if (secretsEqual(given, token)) {
        return new Response(null, {
          status: 303,
          headers: { ...security, location: absolute(back, request), 'set-cookie': sessionCookie(token, secure) },
        });
      }
      return html(401, loginPage({ nonce, next: back, error: 'That token is not valid.' }));
    }
    if (method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) {
      return html(401, loginPage({ nonce, next: url.pathname + url.search }));
    }
    return json(401, 'authentication required: send Authorization: Bearer TOKEN', { 'www-authenticate': 'Bearer realm="meshscope"' });
  }

  const forward = new Headers(request.headers);
  forward.set('x-nonce', nonce);
  forward.set('content-security-policy', security['content-security-policy'] ?? '');
  forward.set(AUTHENTICATED_HEADER, authed ? '1' : '0');
  const res = NextResponse.next({ request: { headers: forward } });
  for (const [k, v] of Object.entries(security)) res.headers.set(k, v);
  return res;
}

/** Reachable without signing in (`--auth token|header|openid`): probes, the sign-in flow and its assets. */
const SIGN_IN_PATHS = new Set(['/api/healthz', '/api/auth/login', '/api/auth/session', '/api/auth/logout', '/signin', '/favicon.ico']);
const isSignInPath = (path: string): boolean =>
  SIGN_IN_PATHS.has(path) || path.startsWith('/_next/') || path.startsWith('/api/auth/openid/');

/**
 * Sign-in modes: who the caller is (session cookie, the auth proxy's headers from a trusted peer, or a
 * bearer token the route reviews), the CSRF token on every state-changing request of a cookie or header
 * caller, and the identity forwarded to the routes in headers the client cannot set (server/auth/identity.ts).
 */
function signedIn(
  request: NextRequest,
  url: URL,
  method: string,
  s: AuthSettings,
  nonce: string,
  security: Record<string, string>,
): Response {
  const json = (status: number, error: string, extra: Record<string, string> = {}): Response =>
    Response.json({ error }, { status, headers: { ...security, 'cache-control': 'no-store', ...extra } });
  const secret = sessionSecret();
  if (!secret) return json(503, 'sign-in is misconfigured: MESHSCOPE_SESSION_SECRET is not set (meshscope serve sets it)');
  const a = authenticate(request.headers, s, secret, Math.floor(Date.now() / 1000));
  if (a.status === 401) return json(401, a.error);
  const open = isSignInPath(url.pathname);
  if (!a.principal && !open) {
    if (method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) {
      const back = safeNext(url.pathname + url.search);
      return new Response(null, {
        status: 303,
        headers: { ...security, location: absolute(`/signin?next=${encodeURIComponent(back)}`, request) },
      });
    }
    return json(401, 'sign in first: POST /api/auth/login, or send Authorization: Bearer <token>', {
      'www-authenticate': 'Bearer realm="meshscope"',
    });
  }
  if (a.principal && isUnsafeMethod(method) && url.pathname !== '/api/auth/login' && !csrfOk(a.principal, request.headers, secret))
    return json(403, 'this request needs the X-CSRF-Token of your session (GET /api/auth/session gives it)');
  const forward = new Headers(request.headers);
  for (const h of OWNED_HEADERS) forward.delete(h);
  if (a.principal) for (const [k, v] of Object.entries(identityHeaders(a.principal))) forward.set(k, v);
  forward.set('x-nonce', nonce);
  forward.set('content-security-policy', security['content-security-policy'] ?? '');
  const res = NextResponse.next({ request: { headers: forward } });
  for (const [k, v] of Object.entries(security)) res.headers.set(k, v);
  return res;
}

/** Next.js requires an absolute Location from a proxy; it sends it relative again (same origin). */
const absolute = (path: string, request: NextRequest): string => new URL(path, request.url).toString();

/** POST /api/login (form: token, next): a session cookie and back to `next`, or the form again. */
function login(
  request: NextRequest,
  body: Uint8Array,
  token: string | undefined,
  nonce: string,
  security: Record<string, string>,
): Response {
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const next = safeNext(form.get('next'));
  if (!token) return new Response(null, { status: 303, headers: { ...security, location: absolute(next, request) } });
  if (!secretsEqual(form.get('token') ?? '', token)) {
    return new Response(loginPage({ nonce, next, error: 'That token is not valid.' }), {
      status: 401,
      headers: { ...security, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const url = new URL(request.url);
  const secure = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  return new Response(null, {
    status: 303,
    headers: { ...security, location: absolute(next, request), 'set-cookie': sessionCookie(token, secure) },
  });
}
