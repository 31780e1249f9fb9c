// Thin adapter: GET /api/proxies/POD.NS/drift[?with=istiod][&bodies=0] (meshscope's config for the pod against its Envoy's; server/api/liveDrift.ts).
import { toResponse } from '@/server/api/http';
import { proxyDrift } from '@/server/api/liveDrift';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const rt = await readyRuntime();
  const query = new URL(req.url, 'http://x').searchParams;
  const opts = { withIstiod: query.get('with') === 'istiod', withoutBodies: query.get('bodies') === '0' };
  return toResponse(await proxyDrift(rt.context(), rt.liveSource(), id, opts), req.url);
}
