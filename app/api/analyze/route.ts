// Thin adapter: GET /api/analyze (findings with Istio's codes for the current snapshot).
import { analyzeMesh } from '@/server/api/analyze';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(analyzeMesh(rt.context()), req.url);
}
