// Thin adapter: GET /api/graph[?graphType=versionedApp|app|workload|service|proxy] (the mesh overview graph,
// derived from config; built and serialised once per snapshot and type; narrowed to the caller's namespaces
// when sign-in is on).
import { graphTypeOf, meshGraph, typedGraph } from '@/server/api/graph';
import { toResponse } from '@/server/api/http';
import { scopeGraph } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const type = graphTypeOf(new URL(req.url).searchParams);
  if (typeof type !== 'string') return toResponse(type, req.url);
  if (ctx.viewer && !ctx.viewer.all) return toResponse(typedGraph(ctx, type, scopeGraph(ctx, meshGraph(ctx)).body), req.url);
  return rt.responses.respond(req, ctx.snapshot, type === 'proxy' ? 'graph' : `graph\u0000${type}`, () => typedGraph(ctx, type));
}
