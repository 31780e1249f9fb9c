// Thin adapter: GET /debug/adsz[?proxyID=POD.NS][&page=N&limit=N] (istiod's AdsClients: the connected xDS
// clients; paged, 100 per page by default).
import { adsz } from '@/server/api/adsz';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';
import { wholeMeshOnly } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const hidden = wholeMeshOnly(ctx);
  if (hidden) return toResponse(hidden, req.url);
  const q = new URL(req.url).searchParams;
  return toResponse(adsz(rt.adsConnections(), q.get('proxyID'), { page: q.get('page'), limit: q.get('limit') }), req.url);
}
