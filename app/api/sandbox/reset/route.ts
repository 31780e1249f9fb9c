// Thin adapter: POST /api/sandbox/reset — the demo mesh back to what it embeds (bearer token, or the signed-in user). Audited.
import { toResponse } from '@/server/api/http';
import { resetSandbox } from '@/server/api/sandboxApply';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(await resetSandbox(r.rt.applyContext(), req.headers.get('authorization'), r.ctx.viewer), req.url);
}
