// Thin adapter: GET /debug/mesh (istiod's shape: the effective MeshConfig as JSON).
import { toResponse } from '@/server/api/http';
import { debugMesh } from '@/server/api/meshConfig';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(debugMesh(rt.context()), req.url);
}
