// Thin adapter: POST /api/sandbox/evaluate {draft, proxies?, requests?, contracts?} → the sandbox evaluation.
import { toResponse } from '@/server/api/http';
import { evaluateSandbox, readLimitedJson } from '@/server/api/sandbox';
import { fail } from '@/server/api/types';
import { draftOutsideView, scopeEvaluation } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { ctx } = r;
  const t0 = performance.now();
  const res = evaluateSandbox(ctx, body);
  if (res.status !== 200 || !('stats' in res.body)) return toResponse(res, req.url);
  res.body.stats.ms = Math.round(performance.now() - t0);
  return toResponse(draftOutsideView(ctx, res.body) ?? scopeEvaluation(ctx, { status: 200, body: res.body }), req.url);
}
