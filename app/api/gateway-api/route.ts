// Thin adapter: GET /api/gateway-api (Gateway API objects, their status and the proxies serving them).
import { toResponse } from '@/server/api/http';
import { gatewayApiStatus } from '@/server/api/gatewayApi';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(gatewayApiStatus(rt.context()), req.url);
}
