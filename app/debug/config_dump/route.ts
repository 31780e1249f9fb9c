// Thin adapter: GET /debug/config_dump?proxyID=POD.NS[&type=…] (same JSON as `meshscope translate`), or
// ?types=workload[,authorization] for ztunnel's view (same elements as GET /api/ztunnel).
import { toResponse } from '@/server/api/http';
import { debugConfigDump } from '@/server/api/proxies';
import { ztunnelDebugDump } from '@/server/api/ztunnel';
import { apiContext } from '@/server/requestContext';
import { hiddenProxy, wholeMeshOnly } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  const q = new URL(req.url).searchParams;
  const types = q.get('types');
  if (types !== null) return toResponse(wholeMeshOnly(ctx) ?? ztunnelDebugDump(ctx, types), req.url);
  return toResponse(hiddenProxy(ctx, q.get('proxyID') ?? '') ?? debugConfigDump(ctx, q), req.url);
}
