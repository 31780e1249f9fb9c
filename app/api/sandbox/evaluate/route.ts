// Thin adapter: POST /api/sandbox/evaluate {draft, proxies?, requests?, contracts?} → the sandbox evaluation.
import { toResponse } from '@/server/api/http';
import { evaluateSandbox, readLimitedJson } from '@/server/api/sandbox';
import { fail } from '@/server/api/types';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  const rt = await readyRuntime();
  const t0 = performance.now();
  const res = evaluateSandbox(rt.context(), body);
  if (res.status === 200 && 'stats' in res.body) res.body.stats.ms = Math.round(performance.now() - t0);
  return toResponse(res, req.url);
}
