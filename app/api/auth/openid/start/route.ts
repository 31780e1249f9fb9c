// Thin adapter: GET /api/auth/openid/start?next=/path (`serve --auth openid`) → the identity provider.
import { openidStart } from '@/server/api/openidRoutes';
import { rawResponse, requestOrigin } from '@/server/api/rawResponse';
import { sessionSecret } from '@/server/auth/secret';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { origin, secure } = requestOrigin(req);
  const next = new URL(req.url).searchParams.get('next');
  return rawResponse(
    await openidStart(rt.access, { origin, next, secret: sessionSecret() ?? '', nowSec: Math.floor(Date.now() / 1000), secure }),
  );
}
