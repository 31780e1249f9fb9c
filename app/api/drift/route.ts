// Thin adapter: POST /api/drift {expected, actual} → the drift body (server/api/drift.ts). Two uploaded dumps:
// nothing of the mesh is read, but with sign-in the caller must be signed in like for every /api route.
import { driftRequest } from '@/server/api/drift';
import { readJsonBody, toResponse } from '@/server/api/http';
import { maxBodyBytes } from '@/server/api/runtimeConfig';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { body, error } = await readJsonBody(req, maxBodyBytes(r.rt.config));
  if (error) return toResponse(error, req.url);
  return toResponse(driftRequest(body), req.url);
}
