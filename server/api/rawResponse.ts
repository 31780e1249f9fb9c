// A non-JSON answer (redirects, small HTML pages of the sign-in flow) → Web Response; and the request's
// public origin (the Host the browser used, already checked by proxy.ts against the allowed names).
import type { RawAnswer } from './openidRoutes';

export function rawResponse(a: RawAnswer): Response {
  const headers = new Headers(a.headers);
  for (const c of a.cookies) headers.append('set-cookie', c);
  return new Response(a.body ?? null, { status: a.status, headers });
}

export function requestOrigin(req: Request): { origin: string; secure: boolean } {
  const u = new URL(req.url);
  const secure = u.protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
  const host = req.headers.get('host') ?? u.host;
  return { origin: `${secure ? 'https' : 'http'}://${host}`, secure };
}
