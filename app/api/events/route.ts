// Thin adapter: GET /api/events, a server-sent event stream of "proxy X changed" (`event: proxies`);
// `?traffic=1` adds the demo data plane's counters (`event: traffic`, GET /api/demo/traffic?window=2's body) every second.
import { eventStream, SSE_HEADERS } from '@/server/api/events';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = getRuntime();
  const demo = new URL(req.url).searchParams.get('traffic') === '1' ? rt.demoTraffic() : undefined;
  const stream = eventStream((l) => rt.subscribe(l), {
    hello: { version: rt.snapshot().version },
    signal: req.signal,
    ...(demo ? { periodic: { event: 'traffic', everyMs: 1000, data: () => demo.report(2) } } : {}),
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
