// Thin adapter: POST /api/simulate {proxyId, request} | {dump, request} → the simulator's JSON.
import { toResponse } from '@/server/api/http';
import { readJsonBody, simulateRequest } from '@/server/api/simulate';
import { fail } from '@/server/api/types';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const { body, error } = await readJsonBody(req);
  if (error !== undefined) return toResponse(fail(400, error), req.url);
  const rt = await readyRuntime();
  return toResponse(simulateRequest(rt.context(), body), req.url);
}
