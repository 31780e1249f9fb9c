// Thin adapter: GET /api/mesh (the effective mesh config, where it came from, its options and problems).
import { toResponse } from '@/server/api/http';
import { meshConfigView } from '@/server/api/meshConfig';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(meshConfigView(rt.context()), req.url);
}
