// Thin adapter: POST /api/simulate {proxyId, request} | {dump, request} → the simulator's JSON.
import { readJsonBody, toResponse } from '@/server/api/http';
import { maxBodyBytes } from '@/server/api/runtimeConfig';
import { simulateRequest } from '@/server/api/simulate';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { body, error } = await readJsonBody(req, maxBodyBytes(rt.config));
  if (error) return toResponse(error, req.url);
  return toResponse(simulateRequest(rt.context(), body), req.url);
}
