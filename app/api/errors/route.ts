// Thin adapter: GET /api/errors (located input errors + source status).
import { toResponse } from '@/server/api/http';
import { inputErrors } from '@/server/api/debug';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(inputErrors(rt.context()), req.url);
}
