// Thin adapter: POST /api/sandbox/apply {draft, confirm?} (bearer token; a cluster needs serve --allow-apply).
import { toResponse } from '@/server/api/http';
import { readLimitedJson } from '@/server/api/sandbox';
import { applyGate, applySandbox } from '@/server/api/sandboxApply';
import { fail } from '@/server/api/types';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const ctx = rt.applyContext();
  const auth = req.headers.get('authorization');
  // Refuse before reading a body the caller may not send.
  const gate = applyGate(ctx, auth);
  if (gate) return toResponse(gate, req.url);
  const { body, status, error } = await readLimitedJson(req);
  if (error !== undefined) return toResponse(fail(status ?? 400, error), req.url);
  return toResponse(await applySandbox(ctx, auth, body), req.url);
}
