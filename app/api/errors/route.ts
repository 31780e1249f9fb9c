// Thin adapter: GET /api/errors (located input errors + source status).
import { toResponse } from '@/server/api/http';
import { inputErrors } from '@/server/api/debug';
import { apiContext } from '@/server/requestContext';
import { scopeErrors } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(scopeErrors(ctx, inputErrors(ctx)), req.url);
}
