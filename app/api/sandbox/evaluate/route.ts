// Thin adapter: POST /api/sandbox/evaluate {draft, proxies?, requests?, contracts?} → the sandbox evaluation,
// computed in the CPU pool (server/isolate: time budget, bounded queue; docs/budgets.md), never on the ADS thread.
import { jsonTextResponse, toResponse } from '@/server/api/http';
import { readLimitedJson } from '@/server/api/sandbox';
import { fail } from '@/server/api/types';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  const rt = await readyRuntime();
  return jsonTextResponse(await rt.cpu.run('evaluate', body), req.url);
}
