// Thin adapter: GET /api/graph[?graphType=versionedApp|app|workload|service|proxy][&traffic=1[&window=S]] (the
// mesh overview graph, derived from config; built and serialised once per snapshot and type; narrowed to the
// caller's namespaces when sign-in is on; `traffic=1` adds observed traffic from Prometheus to its route edges
// (server/api/graphTraffic.ts), which the graph types then merge (server/meshGraph/graphType.ts)).
import { graphTypeOf, meshGraph, typedGraph } from '@/server/api/graph';
import { graphWithTraffic } from '@/server/api/graphTraffic';
import { toResponse } from '@/server/api/http';
import { ok } from '@/server/api/types';
import { scopeGraph } from '@/server/api/visibility';
import { toGraphType } from '@/server/meshGraph/graphType';
import { apiContext } from '@/server/requestContext';
import type { MeshGraph } from '@/server/meshGraph/graph';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const params = new URL(req.url).searchParams;
  const type = graphTypeOf(params);
  if (typeof type !== 'string') return toResponse(type, req.url);
  if (params.get('traffic') === '1') {
    const base = (ctx.viewer && !ctx.viewer.all ? scopeGraph(ctx, meshGraph(ctx)) : meshGraph(ctx)).body as MeshGraph;
    const observed = await graphWithTraffic(ctx, rt.prometheus(), params, base);
    if (observed.status !== 200 || type === 'proxy' || 'error' in observed.body) return toResponse(observed, req.url);
    return toResponse(ok(toGraphType(observed.body as MeshGraph, type)), req.url);
  }
  if (ctx.viewer && !ctx.viewer.all) return toResponse(typedGraph(ctx, type, scopeGraph(ctx, meshGraph(ctx)).body), req.url);
  return rt.responses.respond(req, ctx.snapshot, type === 'proxy' ? 'graph' : `graph\u0000${type}`, () => typedGraph(ctx, type));
}
