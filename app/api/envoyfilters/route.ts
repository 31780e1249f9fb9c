// Thin adapter: GET /api/envoyfilters (every EnvoyFilter: proxies it selects, applied anywhere or why not).
import { envoyFilterReachBody } from '@/server/api/envoyFilterReach';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(envoyFilterReachBody(r.ctx), req.url);
}
