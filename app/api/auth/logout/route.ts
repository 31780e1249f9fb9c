// Thin adapter: POST /api/auth/logout — the session revoked and its cookie cleared.
import { logout } from '@/server/api/authRoutes';
import { toResponse } from '@/server/api/http';
import { forwardedPrincipal } from '@/server/auth/identity';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const secure = new URL(req.url).protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
  const answer = logout(rt.access, forwardedPrincipal(req.headers), { nowSec: Math.floor(Date.now() / 1000), secure });
  const res = toResponse(answer.result, req.url);
  if (answer.setCookie) res.headers.append('set-cookie', answer.setCookie);
  return res;
}
