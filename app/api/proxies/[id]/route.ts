// Thin adapter: GET /api/proxies/POD.NS (tables + config dump of one proxy).
import { toResponse } from '@/server/api/http';
import { proxyDetail } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  return toResponse(proxyDetail(rt.context(), id), req.url);
}
