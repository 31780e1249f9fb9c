// POST /api/sandbox/apply {draft, confirm?} and POST /api/sandbox/reset (README "Sandbox apply").
// Off by default where it matters: a cluster source refuses (403) unless `serve --allow-apply`; every
// request must carry the apply bearer token (401 otherwise; `serve` prints it, or --auth-token-file /
// MESHSCOPE_AUTH_TOKEN sets it). Without `confirm: true` nothing changes: the answer is the plan (for a
// cluster, with the server-side dry run's result). A draft with errors is never applied (422).
import { z } from 'zod';
import { parseDraft } from '../sandbox/draft';
import type { SandboxProblem } from '../sandbox/types';
import type { Applier, ApplyOutcome } from './apply/types';
import { checkBearer } from './auth';
import type { ApiResult } from './types';

export interface ApplyContext {
  applier: Applier;
  /** `serve --allow-apply`: required for a cluster source. */
  allowApply: boolean;
  token: string;
}

export type ApplyResponse = ApplyOutcome | { error: string; errors?: SandboxProblem[] };

const bodySchema = z.strictObject({ draft: z.string(), confirm: z.boolean().optional() });

const err = (status: number, error: string, errors?: SandboxProblem[]): ApiResult<ApplyResponse> => ({
  status,
  body: errors ? { error, errors } : { error },
});

/** The checks every apply/reset request passes first: the cluster gate (403), then the token (401). */
export function applyGate(ctx: ApplyContext, authorization: string | null): ApiResult<ApplyResponse> | undefined {
  if (ctx.applier.mode === 'kube' && !ctx.allowApply)
    return err(
      403,
      'apply to a cluster is disabled: start meshscope serve with --allow-apply (and the RBAC overlay deploy/overlays/apply)',
    );
  if (!checkBearer({ headers: new Headers(authorization ? { authorization } : {}) }, ctx.token))
    return err(401, 'apply needs the bearer token meshscope serve printed at start (Authorization: Bearer TOKEN)');
  return undefined;
}

export async function applySandbox(ctx: ApplyContext, authorization: string | null, body: unknown): Promise<ApiResult<ApplyResponse>> {
  const gate = applyGate(ctx, authorization);
  if (gate) return gate;
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success)
    return err(400, `invalid apply request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
  const draft = parseDraft(parsed.data.draft);
  const errors = draft.errors.filter((e) => e.level === 'error');
  if (errors.length > 0) return err(422, 'the draft has errors: nothing applied', errors);
  if (draft.edits.length === 0) return err(422, 'the draft has no objects to apply');
  try {
    const out = parsed.data.confirm === true ? await ctx.applier.apply(draft.edits) : await ctx.applier.plan(draft.edits);
    return { status: 200, body: out };
  } catch (e) {
    return err(502, `apply failed: ${(e as Error).message}`);
  }
}

export async function resetSandbox(ctx: ApplyContext, authorization: string | null): Promise<ApiResult<ApplyResponse | { reset: true }>> {
  const gate = applyGate(ctx, authorization);
  if (gate) return gate;
  if (!ctx.applier.reset) return err(409, `reset is only for the demo mesh (this server's source is ${ctx.applier.mode})`);
  await ctx.applier.reset();
  return { status: 200, body: { reset: true } };
}
