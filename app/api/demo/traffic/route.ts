// Thin adapter: GET /api/demo/traffic[?window=S] (the demo data plane's live counters).
import { demoTraffic } from '@/server/api/demoTraffic';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt } = r;
  return toResponse(demoTraffic(rt.demoTraffic(), new URL(req.url).searchParams), req.url);
}
