// GET /api/graph: the mesh overview graph (server/meshGraph), derived from config alone.
import { buildMeshGraph, type MeshGraph } from '../meshGraph/graph';
import { memoized } from './snapshotMemo';
import { ok, type ApiContext, type ApiResult } from './types';

export function meshGraph(ctx: ApiContext): ApiResult<MeshGraph> {
  return ok(memoized(ctx, 'graph', () => buildMeshGraph(ctx.snapshot, ctx.options)));
}
