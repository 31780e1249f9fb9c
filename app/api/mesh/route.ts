// Thin adapter: GET /api/mesh (the effective mesh config, where it came from, its options and problems).
import { toResponse } from '@/server/api/http';
import { meshConfigView } from '@/server/api/meshConfig';
import { apiContext } from '@/server/requestContext';
import { hiddenMeshConfig } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(hiddenMeshConfig(ctx) ?? meshConfigView(ctx), req.url);
}
