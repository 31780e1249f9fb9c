// Thin adapter: GET /api/ztunnel[?section=workloads|services|policies] (same JSON as `meshscope ztunnel-config -o json`;
// with sign-in, the caller's namespaces only).
import { toResponse } from '@/server/api/http';
import { scopeZtunnel } from '@/server/api/visibility';
import { ztunnelView } from '@/server/api/ztunnel';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(scopeZtunnel(r.ctx, ztunnelView(r.ctx, new URL(req.url).searchParams)), req.url);
}
