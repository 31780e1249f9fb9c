// Thin adapter: GET /api/proxies/POD.NS (tables + config dump of one proxy; `?tables=0` leaves the tables out).
import { toResponse } from '@/server/api/http';
import { proxyDetail } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  const tables = new URL(req.url, 'http://x').searchParams.get('tables') !== '0';
  return toResponse(proxyDetail(rt.context(), id, { tables }), req.url);
}
