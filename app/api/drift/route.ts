// Thin adapter: POST /api/drift {expected, actual} → the drift body (server/api/drift.ts).
import { driftRequest } from '@/server/api/drift';
import { readJsonBody, toResponse } from '@/server/api/http';
import { maxBodyBytes } from '@/server/api/runtimeConfig';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { body, error } = await readJsonBody(req, maxBodyBytes(rt.config));
  if (error) return toResponse(error, req.url);
  return toResponse(driftRequest(body), req.url);
}
