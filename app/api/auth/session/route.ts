// Thin adapter: GET /api/auth/session → {user, groups, csrfToken} for a signed-in caller, 401 otherwise.
import { session } from '@/server/api/authRoutes';
import { toResponse } from '@/server/api/http';
import { forwardedPrincipal } from '@/server/auth/identity';
import { sessionSecret } from '@/server/auth/secret';
import { contextFor } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await contextFor(req.headers);
  if (r.status === 401) return toResponse({ status: 401, body: { error: r.error } }, req.url);
  return toResponse(session(r.ctx.viewer, forwardedPrincipal(req.headers), sessionSecret() ?? ''), req.url);
}
