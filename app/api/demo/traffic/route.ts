// Thin adapter: GET /api/demo/traffic[?window=S] (the demo data plane's live counters).
import { demoTraffic } from '@/server/api/demoTraffic';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(demoTraffic(rt.demoTraffic(), new URL(req.url).searchParams), req.url);
}
