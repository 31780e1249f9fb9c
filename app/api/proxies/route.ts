// Thin adapter: GET /api/proxies (every proxy with resource counts).
import { toResponse } from '@/server/api/http';
import { listProxies } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(listProxies(rt.context()), req.url);
}
