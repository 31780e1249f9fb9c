// `--auth openid` endpoints, transport-free: GET /api/auth/openid/start?next=/path → 302 to the identity
// provider (PKCE, state, nonce in a signed flow cookie); GET /api/auth/openid/callback → the session cookie
// and a same-origin page that continues to `next` (a plain redirect would arrive as the tail of a
// cross-site navigation, where the SameSite=Strict session cookie is not yet sent).
import type { AccessControl } from '../auth/access';
import { clearedFlowCookie, finishOpenid, OIDC_CALLBACK_PATH, startOpenid } from '../auth/openid';
import { newSessionId, SESSION_TTL_SEC, sealSession, sessionCookie } from '../auth/session';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body?: string;
}

const safeNext = (n: string | null): string => (n?.startsWith('/') && !n.startsWith('//') && !n.startsWith('/\\') ? n : '/');
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (status: number, text: string, cookies: string[], refreshTo?: string): RawAnswer => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  cookies,
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>meshscope: sign in</title>${
    refreshTo ? `<meta http-equiv="refresh" content="0;url=${esc(refreshTo)}">` : ''
  }</head><body><p>${esc(text)}</p>${refreshTo ? `<p><a href="${esc(refreshTo)}">Continue</a></p>` : '<p><a href="/signin">Sign in again</a></p>'}</body></html>`,
});

export async function openidStart(
  access: AccessControl | undefined,
  opts: { origin: string; next: string | null; secret: string; nowSec: number; secure: boolean },
): Promise<RawAnswer> {
  if (access?.settings.mode !== 'openid' || !access) return page(404, 'OpenID sign-in is off on this meshscope.', []);
  try {
    const config = await access.openidProvider();
    const f = await startOpenid(config, { ...opts, redirectUri: `${opts.origin}${OIDC_CALLBACK_PATH}`, next: safeNext(opts.next) });
    return { status: 302, headers: { location: f.location, 'cache-control': 'no-store' }, cookies: [f.setCookie] };
  } catch (e) {
    return page(502, `The identity provider could not be reached: ${(e as Error).message}`, []);
  }
}

export async function openidCallback(
  access: AccessControl | undefined,
  callbackUrl: URL,
  flowCookie: string | undefined,
  opts: { secret: string; nowSec: number; secure: boolean },
): Promise<RawAnswer> {
  if (access?.settings.mode !== 'openid' || !access?.settings.openid) return page(404, 'OpenID sign-in is off on this meshscope.', []);
  let config: Awaited<ReturnType<AccessControl['openidProvider']>>;
  try {
    config = await access.openidProvider();
  } catch (e) {
    return page(502, `The identity provider could not be reached: ${(e as Error).message}`, [clearedFlowCookie(opts.secure)]);
  }
  const r = await finishOpenid(config, callbackUrl, flowCookie, { ...opts, issuer: access.settings.openid.issuer });
  if ('error' in r) return page(401, r.error, [clearedFlowCookie(opts.secure)]);
  const sealed = sealSession(
    { sid: newSessionId(), user: r.user, groups: r.groups, exp: opts.nowSec + SESSION_TTL_SEC, via: 'openid' },
    opts.secret,
  );
  return page(200, `Signed in as ${r.user}.`, [sessionCookie(sealed, opts.secure), clearedFlowCookie(opts.secure)], r.next);
}
