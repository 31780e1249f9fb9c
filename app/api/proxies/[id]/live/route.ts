// Thin adapter: GET /api/proxies/POD.NS/live (the pod's own Envoy config dump and its tables; server/api/live.ts).
import { toResponse } from '@/server/api/http';
import { proxyLive } from '@/server/api/live';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  return toResponse(await proxyLive(rt.liveSource(), id), req.url);
}
