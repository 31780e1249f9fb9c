// Thin adapter: POST /api/sandbox/evaluate {draft, proxies?, requests?, contracts?} → the sandbox evaluation,
// computed in the CPU pool (server/isolate: time budget, bounded queue; docs/budgets.md), never on the ADS thread.
import { jsonTextResponse, toResponse } from '@/server/api/http';
import { readLimitedJson } from '@/server/api/sandbox';
import { fail } from '@/server/api/types';
import type { EvaluateResult } from '@/server/sandbox/types';
import { draftOutsideView, scopeEvaluation } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const answer = await rt.cpu.run('evaluate', body);
  // Signed-in callers see only their namespaces' part of the evaluation (server/api/visibility.ts).
  if (!ctx.viewer || ctx.viewer.all || answer.status !== 200) return jsonTextResponse(answer, req.url);
  const result = JSON.parse(answer.json) as EvaluateResult;
  return toResponse(draftOutsideView(ctx, result) ?? scopeEvaluation(ctx, { status: 200, body: result }), req.url);
}
