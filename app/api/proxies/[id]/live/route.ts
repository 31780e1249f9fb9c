// Thin adapter: GET /api/proxies/POD.NS/live (the pod's own Envoy config dump and its tables; server/api/live.ts).
import { toResponse } from '@/server/api/http';
import { proxyLive } from '@/server/api/live';
import { hiddenProxy } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, route: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await route.params;
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(hiddenProxy(r.ctx, id) ?? (await proxyLive(r.rt.liveSource(), id)), req.url);
}
