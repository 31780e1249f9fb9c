// Thin adapter: GET /api/contracts — `serve --contracts FILE` results on the current snapshot.
import { contractsResponse } from '@/server/api/contracts';
import { toResponse } from '@/server/api/http';
import { apiContext } from '@/server/requestContext';
import { scopeContracts } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  return toResponse(scopeContracts(r.ctx, contractsResponse(await r.rt.contracts())), req.url);
}
