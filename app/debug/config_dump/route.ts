// Thin adapter: GET /debug/config_dump?proxyID=POD.NS[&type=…] (same JSON as `meshscope translate`).
import { toResponse } from '@/server/api/http';
import { debugConfigDump } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(debugConfigDump(rt.context(), new URL(req.url).searchParams), req.url);
}
