// Thin adapter: GET /api/healthz (liveness + snapshot counts).
import { toResponse } from '@/server/api/http';
import { healthz } from '@/server/api/debug';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(healthz(rt.context()), req.url);
}
