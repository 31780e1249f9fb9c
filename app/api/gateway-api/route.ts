// Thin adapter: GET /api/gateway-api (Gateway API objects, their status and the proxies serving them).
import { toResponse } from '@/server/api/http';
import { gatewayApiStatus } from '@/server/api/gatewayApi';
import { apiContext } from '@/server/requestContext';
import { scopeGatewayApi } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(scopeGatewayApi(ctx, gatewayApiStatus(ctx)), req.url);
}
