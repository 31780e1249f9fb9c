// Thin adapter: GET /api/proxies (every proxy; counts when cheap) and GET /api/proxies?counts=a,b.
import { toResponse } from '@/server/api/http';
import { proxiesHandler } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(proxiesHandler(rt.context(), new URL(req.url, 'http://x').searchParams), req.url);
}
