// Thin adapter: GET /api/audit — the sandbox applies and resets (newest first) whose objects the caller may see.
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const v = r.ctx.viewer;
  return toResponse({ status: 200, body: { entries: r.rt.audit.list((ns) => !v || v.sees(ns)) } }, req.url);
}
