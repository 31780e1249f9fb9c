// Thin adapter: GET /api/graph (the mesh overview graph, derived from config; built and serialised once per snapshot).
import { meshGraph } from '@/server/api/graph';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const api = rt.context();
  return rt.responses.respond(req, api.snapshot, 'graph', () => meshGraph(api));
}
