// Thin adapter: GET /api/events, a server-sent event stream of "proxy X changed" (`event: proxies`);
// `?traffic=1` adds the demo data plane's counters (`event: traffic`, GET /api/demo/traffic?window=2's body) every second.
import { eventStream, SSE_HEADERS } from '@/server/api/events';
import { scopeEvent } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const demo = new URL(req.url).searchParams.get('traffic') === '1' ? rt.demoTraffic() : undefined;
  const stream = eventStream((l) => rt.subscribe((e) => l(scopeEvent(ctx, e))), {
    hello: { version: rt.snapshot().version },
    signal: req.signal,
    ...(demo ? { periodic: { event: 'traffic', everyMs: 1000, data: () => demo.report(2) } } : {}),
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
