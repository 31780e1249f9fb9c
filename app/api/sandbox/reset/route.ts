// Thin adapter: POST /api/sandbox/reset — the demo mesh back to what it embeds (bearer token).
import { toResponse } from '@/server/api/http';
import { resetSandbox } from '@/server/api/sandboxApply';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(await resetSandbox(rt.applyContext(), req.headers.get('authorization')), req.url);
}
