// Thin adapter: GET /api/proxies (every proxy the caller may see; counts when cheap) and GET /api/proxies?counts=a,b.
import { toResponse } from '@/server/api/http';
import { countProxies, listProxies } from '@/server/api/proxies';
import { scopeProxies, scopeProxyCounts } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  const ids = new URL(req.url, 'http://x').searchParams.get('counts');
  if (ids !== null) {
    const res = countProxies(ctx, ids);
    return toResponse(res.status === 200 && 'counts' in res.body ? scopeProxyCounts(ctx, { status: 200, body: res.body }) : res, req.url);
  }
  return toResponse(scopeProxies(ctx, listProxies(ctx)), req.url);
}
