// Thin adapter: GET /debug/syncz (istiod's SyncStatus[]; empty until xDS clients connect).
import { toResponse } from '@/server/api/http';
import { syncz } from '@/server/api/debug';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(syncz(rt.context()), req.url);
}
