// Thin adapter: GET /api/auth/openid/callback (`serve --auth openid`): code → tokens → session.
import { openidCallback } from '@/server/api/openidRoutes';
import { rawResponse, requestOrigin } from '@/server/api/rawResponse';
import { cookieValue } from '@/server/auth/identity';
import { OIDC_COOKIE } from '@/server/auth/openid';
import { sessionSecret } from '@/server/auth/secret';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { origin, secure } = requestOrigin(req);
  // The URL the provider redirected to, as the browser sent it (openid-client checks its state and code).
  const u = new URL(req.url);
  const callback = new URL(`${origin}${u.pathname}${u.search}`);
  return rawResponse(
    await openidCallback(rt.access, callback, cookieValue(req.headers, OIDC_COOKIE), {
      secret: sessionSecret() ?? '',
      nowSec: Math.floor(Date.now() / 1000),
      secure,
    }),
  );
}
