// GET /api/graph: the mesh overview graph (server/meshGraph), derived from config alone, under the ambient
// profile with its ambient view (meshGraph/ambient); `?graphType=` one of Kiali's graph types over it
// (server/meshGraph/graphType.ts).
import { withAmbient } from '../meshGraph/ambient';
import { buildMeshGraph, type MeshGraph } from '../meshGraph/graph';
import { GRAPH_TYPES, type GraphType, isGraphType, toGraphType, type TypedGraph } from '../meshGraph/graphType';
import { memoized } from './snapshotMemo';
import { type ApiContext, type ApiResult, type ErrorBody, fail, ok } from './types';

export function meshGraph(ctx: ApiContext): ApiResult<MeshGraph> {
  return ok(memoized(ctx, 'graph', () => withAmbient(buildMeshGraph(ctx.snapshot, ctx.options), ctx.snapshot, ctx.options)));
}

/** `graphType` of a request: absent → `proxy` (the per-proxy graph, as before the parameter existed); unknown → 400. */
export function graphTypeOf(params: Pick<URLSearchParams, 'get'>): GraphType | ApiResult<ErrorBody> {
  const v = params.get('graphType');
  if (v === null || v === '') return 'proxy';
  if (isGraphType(v)) return v;
  return fail(400, `graphType must be one of ${GRAPH_TYPES.join(', ')} (got ${JSON.stringify(v.slice(0, 40))})`);
}

/** The graph of a type, from a (possibly visibility-scoped) per-proxy graph. */
export function typedGraph(ctx: ApiContext, type: GraphType, base?: MeshGraph): ApiResult<TypedGraph> {
  if (base) return ok(toGraphType(base, type));
  return ok(memoized(ctx, `graph:${type}`, () => toGraphType(meshGraph(ctx).body, type)));
}
