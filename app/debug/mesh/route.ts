// Thin adapter: GET /debug/mesh (istiod's shape: the effective MeshConfig as JSON).
import { toResponse } from '@/server/api/http';
import { debugMesh } from '@/server/api/meshConfig';
import { apiContext } from '@/server/requestContext';
import { hiddenMeshConfig } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(hiddenMeshConfig(ctx) ?? debugMesh(ctx), req.url);
}
