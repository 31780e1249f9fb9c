// Thin adapter: GET /api/proxies/POD.NS/drift[?with=istiod][&bodies=0] (meshscope's config for the pod against its Envoy's; server/api/liveDrift.ts).
import { toResponse } from '@/server/api/http';
import { proxyDrift } from '@/server/api/liveDrift';
import { hiddenProxy } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, route: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await route.params;
  const r = await apiContext(req);
  if (r.response) return r.response;
  const hidden = hiddenProxy(r.ctx, id);
  if (hidden) return toResponse(hidden, req.url);
  const query = new URL(req.url, 'http://x').searchParams;
  const opts = { withIstiod: query.get('with') === 'istiod', withoutBodies: query.get('bodies') === '0' };
  return toResponse(await proxyDrift(r.ctx, r.rt.liveSource(), id, opts), req.url);
}
