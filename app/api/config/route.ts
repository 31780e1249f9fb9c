// Thin adapter: GET /api/config?path=/apis/networking.istio.io/v1/namespaces/NS/virtual-service/NAME
import { configObject } from '@/server/api/configObject';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';
import { scopeConfigObject } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  const path = new URL(req.url).searchParams.get('path');
  return toResponse(scopeConfigObject(ctx, path, configObject(ctx, path)), req.url);
}
