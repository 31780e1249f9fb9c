// GET /api/graph: the mesh overview graph (server/meshGraph), derived from config alone; under the ambient profile
// with its ambient view (meshGraph/ambient).
import { withAmbient } from '../meshGraph/ambient';
import { buildMeshGraph, type MeshGraph } from '../meshGraph/graph';
import { memoized } from './snapshotMemo';
import { ok, type ApiContext, type ApiResult } from './types';

export function meshGraph(ctx: ApiContext): ApiResult<MeshGraph> {
  return ok(memoized(ctx, 'graph', () => withAmbient(buildMeshGraph(ctx.snapshot, ctx.options), ctx.snapshot, ctx.options)));
}
