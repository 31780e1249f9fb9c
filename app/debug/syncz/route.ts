// Thin adapter: GET /debug/syncz (istiod's SyncStatus[]; empty until xDS clients connect).
import { toResponse } from '@/server/api/http';
import { syncz } from '@/server/api/debug';
import { apiContext } from '@/server/requestContext';
import { scopeSyncz } from '@/server/api/visibility';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  return toResponse(scopeSyncz(ctx, syncz(ctx)), req.url);
}
