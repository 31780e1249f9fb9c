// GET /api/graph: the mesh overview graph (server/meshGraph), derived from config alone.
import { buildMeshGraph, type MeshGraph } from '../meshGraph/graph';
import { ok, type ApiContext, type ApiResult } from './types';

export function meshGraph(ctx: ApiContext): ApiResult<MeshGraph> {
  return ok(buildMeshGraph(ctx.snapshot, ctx.options));
}
