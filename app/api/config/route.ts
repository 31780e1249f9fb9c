// Thin adapter: GET /api/config?path=/apis/networking.istio.io/v1/namespaces/NS/virtual-service/NAME
import { configObject } from '@/server/api/configObject';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(configObject(rt.context(), new URL(req.url).searchParams.get('path')), req.url);
}
