// Thin adapter: GET /api/proxies/POD.NS (tables + config dump of one proxy; `?tables=0` leaves the tables out).
// The body is serialised (and, when big, compressed) once per snapshot: rt.responses (server/api/responseCache.ts).
import { proxyDetail } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  const query = new URL(req.url, 'http://x').searchParams;
  const tables = query.get('tables') !== '0';
  const api = rt.context();
  const key = `proxy\u0000${id}\u0000${tables}`;
  return rt.responses.respond(req, api.snapshot, key, () => proxyDetail(api, id, { tables }));
}
