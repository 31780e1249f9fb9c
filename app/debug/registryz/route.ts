// Thin adapter: GET /debug/registryz (istiod's shape: model.Service[]).
import { toResponse } from '@/server/api/http';
import { registryz } from '@/server/api/debug';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(registryz(rt.context()), req.url);
}
