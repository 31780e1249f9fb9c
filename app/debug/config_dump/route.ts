// Thin adapter: GET /debug/config_dump?proxyID=POD.NS[&type=…] (same JSON as `meshscope translate`).
import { toResponse } from '@/server/api/http';
import { debugConfigDump } from '@/server/api/proxies';
import { apiContext } from '@/server/requestContext';
import { hiddenProxy } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  const q = new URL(req.url).searchParams;
  return toResponse(hiddenProxy(ctx, q.get('proxyID') ?? '') ?? debugConfigDump(ctx, q), req.url);
}
