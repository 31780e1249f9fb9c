// Thin adapter: GET /api/proxies/POD.NS/sync (the proxy's ADS connections and per-type sync state).
import { toResponse } from '@/server/api/http';
import { proxySync } from '@/server/api/proxySync';
import { apiContext } from '@/server/requestContext';
import { hiddenProxy } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, route: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await route.params;
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  return toResponse(hiddenProxy(ctx, id) ?? proxySync(ctx, id, rt.adsConnections()), req.url);
}
