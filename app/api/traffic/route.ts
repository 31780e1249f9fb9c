// Thin adapter: GET /api/traffic?service=HOST[&window=S][&source=WORKLOAD.NS] (observed traffic from Prometheus).
import { toResponse } from '@/server/api/http';
import { traffic } from '@/server/api/traffic';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(await traffic(r.ctx, r.rt.prometheus(), new URL(req.url).searchParams), req.url);
}
