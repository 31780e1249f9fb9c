// Thin adapter: GET /api/graph[?traffic=1[&window=S]] (the mesh overview graph, derived from config; built and
// serialised once per snapshot; narrowed to the caller's namespaces when sign-in is on; `traffic=1` adds
// observed traffic from Prometheus to its route edges: server/api/graphTraffic.ts).
import { meshGraph } from '@/server/api/graph';
import { graphWithTraffic } from '@/server/api/graphTraffic';
import { toResponse } from '@/server/api/http';
import { scopeGraph } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';
import type { MeshGraph } from '@/server/meshGraph/graph';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const params = new URL(req.url).searchParams;
  if (params.get('traffic') === '1') {
    const base = (ctx.viewer && !ctx.viewer.all ? scopeGraph(ctx, meshGraph(ctx)) : meshGraph(ctx)).body as MeshGraph;
    return toResponse(await graphWithTraffic(ctx, rt.prometheus(), params, base), req.url);
  }
  if (ctx.viewer && !ctx.viewer.all) return toResponse(scopeGraph(ctx, meshGraph(ctx)), req.url);
  return rt.responses.respond(req, ctx.snapshot, 'graph', () => meshGraph(ctx));
}
