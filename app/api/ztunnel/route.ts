// Thin adapter: GET /api/ztunnel[?section=workloads|services|policies] (same JSON as `meshscope ztunnel-config -o json`).
import { toResponse } from '@/server/api/http';
import { ztunnelView } from '@/server/api/ztunnel';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(ztunnelView(rt.context(), new URL(req.url).searchParams), req.url);
}
