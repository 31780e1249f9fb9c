// Thin adapter: GET /api/demo/scrape-targets (Prometheus http_sd JSON for the demo pods' /stats/prometheus).
import { demoScrapeTargets } from '@/server/api/demoTraffic';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(demoScrapeTargets(r.rt.demoTraffic()), req.url);
}
