// Thin adapter: GET /api/graph (the mesh overview graph, derived from config).
import { toResponse } from '@/server/api/http';
import { meshGraph } from '@/server/api/graph';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(meshGraph(rt.context()), req.url);
}
