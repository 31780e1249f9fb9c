// Thin adapter: GET /api/proxies/POD.NS (tables + config dump of one proxy; `?tables=0` leaves the tables out).
// The body is serialised (and, when big, compressed) once per snapshot: rt.responses (server/api/responseCache.ts).
import { proxyDetail } from '@/server/api/proxies';
import { toResponse } from '@/server/api/http';
import { hiddenProxy } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, route: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await route.params;
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx: api } = r;
  const hidden = hiddenProxy(api, id);
  if (hidden) return toResponse(hidden, req.url);
  const query = new URL(req.url, 'http://x').searchParams;
  const tables = query.get('tables') !== '0';
  const key = `proxy\u0000${id}\u0000${tables}`;
  return rt.responses.respond(req, api.snapshot, key, () => proxyDetail(api, id, { tables }));
}
