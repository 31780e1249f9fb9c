// Thin adapter: POST /api/auth/login {"token"} (`serve --auth token`): the cluster reviews the token; a session cookie on success.
import { login } from '@/server/api/authRoutes';
import { readJsonBody, toResponse } from '@/server/api/http';
import { PEER_HEADER } from '@/server/auth/peer';
import { sessionSecret } from '@/server/auth/secret';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { body, error } = await readJsonBody(req, 32 * 1024);
  if (error) return toResponse(error, req.url);
  const secure = new URL(req.url).protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
  const answer = await login(rt.access, body, {
    secret: sessionSecret() ?? '',
    nowSec: Math.floor(Date.now() / 1000),
    secure,
    peer: req.headers.get(PEER_HEADER) ?? '',
  });
  const res = toResponse(answer.result, req.url);
  if (answer.setCookie) res.headers.append('set-cookie', answer.setCookie);
  return res;
}
