// Thin adapter: POST /api/sandbox/apply {draft, confirm?}: the apply bearer token, or with sign-in the signed-in
// user (who applies as itself); a cluster needs serve --allow-apply. Every apply is audited.
import { toResponse } from '@/server/api/http';
import { readLimitedJson } from '@/server/api/sandbox';
import { applyGate, applySandbox } from '@/server/api/sandboxApply';
import { fail } from '@/server/api/types';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const ctx = r.rt.applyContext();
  const actor = r.ctx.viewer;
  const auth = req.headers.get('authorization');
  // Refuse before reading a body the caller may not send.
  const gate = applyGate(ctx, auth, actor);
  if (gate) return toResponse(gate, req.url);
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  return toResponse(await applySandbox(ctx, auth, body, actor), req.url);
}
