// Thin adapter: GET /api/demo/traffic[?window=S] (the demo data plane's live counters; without one, the
// services with a weighted route, configured shares only).
import { demoTraffic } from '@/server/api/demoTraffic';
import { withConfiguredServices } from '@/server/api/demoServices';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  return toResponse(
    withConfiguredServices(demoTraffic(rt.demoTraffic(), new URL(req.url).searchParams), ctx.snapshot, ctx.options),
    req.url,
  );
}
