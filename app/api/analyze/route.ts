// Thin adapter: GET /api/analyze (findings with Istio's codes for the current snapshot).
import { analyzeMesh } from '@/server/api/analyze';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';
import { scopeFindings } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(scopeFindings(ctx, analyzeMesh(ctx)), req.url);
}
