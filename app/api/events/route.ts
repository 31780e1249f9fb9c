// Thin adapter: GET /api/events, a server-sent event stream of "proxy X changed" (`event: proxies`).
import { eventStream, SSE_HEADERS } from '@/server/api/events';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = getRuntime();
  const stream = eventStream((l) => rt.subscribe(l), { hello: { version: rt.snapshot().version }, signal: req.signal });
  return new Response(stream, { headers: SSE_HEADERS });
}
