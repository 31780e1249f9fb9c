// POST /api/sandbox/apply {draft, confirm?} and POST /api/sandbox/reset (README "Sandbox apply").
// Off by default where it matters: a cluster source refuses (403) unless `serve --allow-apply`; every
// request must carry the apply bearer token (401 otherwise; `serve` prints it, or --auth-token-file /
// MESHSCOPE_AUTH_TOKEN sets it). Without `confirm: true` nothing changes: the answer is the plan (for a
// cluster, with the server-side dry run's result). A draft with errors is never applied (422).
// With sign-in (`serve --auth token|header|openid`) there is no shared token: the signed-in user applies,
// as itself (Kubernetes impersonation: its RBAC decides), and every apply and reset is audited.
import { z } from 'zod';
import { parseDraft } from '../sandbox/draft';
import type { SandboxProblem } from '../sandbox/types';
import type { AuditEntry, AuditObject } from '../auth/audit';
import type { DraftEdit } from '../sandbox/types';
import type { ActingUser, Applier, ApplyOutcome } from './apply/types';
import { checkBearer } from './auth';
import type { ApiResult } from './types';

export interface ApplyContext {
  applier: Applier;
  /** `serve --allow-apply`: required for a cluster source. */
  allowApply: boolean;
  token: string;
  /** Sign-in is on: the caller (`actor`) applies as itself and the shared token is not used. */
  signIn?: boolean;
  /** Records one audit entry (the runtime stamps the time and writes it out). */
  audit?: (entry: Omit<AuditEntry, 'time'>) => void;
}

export type ApplyResponse = ApplyOutcome | { error: string; errors?: SandboxProblem[] };

const bodySchema = z.strictObject({ draft: z.string(), confirm: z.boolean().optional() });

const err = (status: number, error: string, errors?: SandboxProblem[]): ApiResult<ApplyResponse> => ({
  status,
  body: errors ? { error, errors } : { error },
});

/**
 * The checks every apply/reset request passes first: the cluster gate (403), then the token (401) — or,
 * with sign-in, a signed-in caller (401 without one).
 */
export function applyGate(ctx: ApplyContext, authorization: string | null, actor?: ActingUser): ApiResult<ApplyResponse> | undefined {
  if (ctx.applier.mode === 'kube' && !ctx.allowApply)
    return err(
      403,
      'apply to a cluster is disabled: start meshscope serve with --allow-apply (and the RBAC overlay deploy/overlays/apply)',
    );
  if (ctx.signIn) return actor ? undefined : err(401, 'sign in first: applies run as the signed-in user');
  if (!checkBearer({ headers: new Headers(authorization ? { authorization } : {}) }, ctx.token))
    return err(401, 'apply needs the bearer token meshscope serve printed at start (Authorization: Bearer TOKEN)');
  return undefined;
}

const auditObject = (e: DraftEdit): AuditObject => {
  if (e.op === 'delete') return { kind: e.ref.kind, ...(e.ref.namespace ? { namespace: e.ref.namespace } : {}), name: e.ref.name };
  const md = (e.object.metadata ?? {}) as { name?: string; namespace?: string };
  return { kind: String(e.object.kind), ...(md.namespace ? { namespace: md.namespace } : {}), name: md.name ?? '' };
};

/** Without sign-in the writer is whoever holds the shared apply token. */
const TOKEN_HOLDER: ActingUser = { user: 'meshscope:apply-token', groups: [] };

function audited(ctx: ApplyContext, actor: ActingUser | undefined, edits: readonly DraftEdit[], out: ApplyOutcome, confirm: boolean): void {
  if (!ctx.audit || !confirm) return;
  const who = ctx.signIn && actor ? actor : TOKEN_HOLDER;
  const failed = out.items.filter((i) => i.ok === false);
  const dryOk = out.dryRun ? out.dryRun.ok : true;
  ctx.audit({
    user: who.user,
    groups: [...who.groups],
    action: 'apply',
    objects: edits.map(auditObject),
    dryRun: {
      ok: dryOk,
      ...(failed.length && !out.applied ? { message: failed.map((i) => `${i.object}: ${i.message ?? ''}`).join('; ') } : {}),
    },
    result: out.applied ? 'applied' : !dryOk ? 'dry-run failed' : failed.length ? 'failed' : 'refused',
    ...(out.message ? { message: out.message } : {}),
  });
}

export async function applySandbox(
  ctx: ApplyContext,
  authorization: string | null,
  body: unknown,
  actor?: ActingUser,
): Promise<ApiResult<ApplyResponse>> {
  const gate = applyGate(ctx, authorization, actor);
  if (gate) return gate;
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success)
    return err(400, `invalid apply request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
  const draft = parseDraft(parsed.data.draft);
  const errors = draft.errors.filter((e) => e.level === 'error');
  if (errors.length > 0) return err(422, 'the draft has errors: nothing applied', errors);
  if (draft.edits.length === 0) return err(422, 'the draft has no objects to apply');
  const as = ctx.signIn ? actor : undefined;
  const confirm = parsed.data.confirm === true;
  try {
    const out = confirm ? await ctx.applier.apply(draft.edits, as) : await ctx.applier.plan(draft.edits, as);
    audited(ctx, actor, draft.edits, out, confirm);
    return { status: 200, body: out };
  } catch (e) {
    const message = `apply failed: ${(e as Error).message}`;
    if (confirm)
      audited(ctx, actor, draft.edits, { mode: ctx.applier.mode, applied: false, items: [], dryRun: { ok: false }, message }, confirm);
    return err(502, message);
  }
}

export async function resetSandbox(
  ctx: ApplyContext,
  authorization: string | null,
  actor?: ActingUser,
): Promise<ApiResult<ApplyResponse | { reset: true }>> {
  const gate = applyGate(ctx, authorization, actor);
  if (gate) return gate;
  if (!ctx.applier.reset) return err(409, `reset is only for the demo mesh (this server's source is ${ctx.applier.mode})`);
  await ctx.applier.reset();
  const who = ctx.signIn && actor ? actor : TOKEN_HOLDER;
  ctx.audit?.({ user: who.user, groups: [...who.groups], action: 'reset', objects: [], dryRun: { ok: true }, result: 'applied' });
  return { status: 200, body: { reset: true } };
}
