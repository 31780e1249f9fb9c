// Thin adapter: GET /api/healthz (readiness: 503 until the ADS server listens; snapshot counts, memory).
// Reachable without the token or sign-in (probes); then only the status is shown.
import { AUTHENTICATED_HEADER } from '@/server/api/auth';
import { healthz } from '@/server/api/debug';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const result = healthz(rt.context());
  if (rt.access || (rt.config.authToken && req.headers.get(AUTHENTICATED_HEADER) !== '1')) {
    const { status } = result.body as { status: string };
    return toResponse({ status: result.status, body: { status } }, req.url);
  }
  // The server's own memory (what `npm run soak` watches for growth).
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return toResponse({ status: result.status, body: { ...(result.body as object), memory: { rss, heapUsed, heapTotal } } }, req.url);
}
