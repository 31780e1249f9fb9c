// Thin adapter: GET /api/proxies/POD.NS/sync (the proxy's ADS connections and per-type sync state).
import { toResponse } from '@/server/api/http';
import { proxySync } from '@/server/api/proxySync';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  return toResponse(proxySync(rt.context(), id, rt.adsConnections()), req.url);
}
