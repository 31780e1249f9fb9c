// Thin adapter: GET /debug/registryz (istiod's shape: model.Service[]).
import { toResponse } from '@/server/api/http';
import { registryz } from '@/server/api/debug';
import { apiContext } from '@/server/requestContext';
import { wholeMeshOnly } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(wholeMeshOnly(ctx) ?? registryz(ctx), req.url);
}
