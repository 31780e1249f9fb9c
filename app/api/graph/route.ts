// Thin adapter: GET /api/graph (the mesh overview graph, derived from config; built and serialised once per snapshot;
// narrowed to the caller's namespaces when sign-in is on).
import { meshGraph } from '@/server/api/graph';
import { toResponse } from '@/server/api/http';
import { scopeGraph } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  if (ctx.viewer && !ctx.viewer.all) return toResponse(scopeGraph(ctx, meshGraph(ctx)), req.url);
  return rt.responses.respond(req, ctx.snapshot, 'graph', () => meshGraph(ctx));
}
