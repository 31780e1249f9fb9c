// Thin adapter: GET /debug/configz (istiod's shape: Kubernetes-shaped Istio configs).
import { toResponse } from '@/server/api/http';
import { configz } from '@/server/api/debug';
import { apiContext } from '@/server/requestContext';
import { wholeMeshOnly } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(wholeMeshOnly(ctx) ?? configz(ctx), req.url);
}
