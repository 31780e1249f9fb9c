// Thin adapter: GET /api/contracts — `serve --contracts FILE` results on the current snapshot.
import { contractsResponse } from '@/server/api/contracts';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(contractsResponse(await rt.contracts()), req.url);
}
