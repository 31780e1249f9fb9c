// Thin adapter: GET /debug/config_dump?proxyID=POD.NS[&type=…] (same JSON as `meshscope translate`), or
// ?types=workload[,authorization] for ztunnel's view (same elements as GET /api/ztunnel).
import { toResponse } from '@/server/api/http';
import { debugConfigDump } from '@/server/api/proxies';
import { ztunnelDebugDump } from '@/server/api/ztunnel';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const query = new URL(req.url).searchParams;
  const types = query.get('types');
  return toResponse(types !== null ? ztunnelDebugDump(rt.context(), types) : debugConfigDump(rt.context(), query), req.url);
}
