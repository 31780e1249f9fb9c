// Thin adapter: GET /debug/configz (istiod's shape: Kubernetes-shaped Istio configs).
import { toResponse } from '@/server/api/http';
import { configz } from '@/server/api/debug';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(configz(rt.context()), req.url);
}
