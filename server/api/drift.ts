// POST /api/drift `{"expected": <config_dump>, "actual": <config_dump>}` → the drift body (issue 21 §2,
// server/drift): per-resource semantic differences of two Envoy config dumps; offline, `onlyInMeshscope`
// means "only in expected" and `onlyInEnvoy` "only in actual". Works without `--live-config` (nothing is
// fetched). Bounded like every request body: the server's body limit (`maxBodyBytes`, 8 MiB by default,
// enforced in proxy.ts and again by readJsonBody), 413 beyond it.
import { z } from 'zod';
import { computeDrift, type DriftBody, DriftInputError } from '../drift/index';
import { fail, ok, type ApiResult } from './types';

export type { DriftBody } from '../drift/types';

export interface DriftRequest {
  expected: unknown;
  actual: unknown;
}

const DriftRequestSchema = z.object({ expected: z.unknown(), actual: z.unknown() }).strict();

export function driftRequest(body: unknown): ApiResult<DriftBody | { error: string }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(400, 'body must be a JSON object {expected, actual}');
  for (const side of ['expected', 'actual'] as const)
    if ((body as Record<string, unknown>)[side] == null) return fail(400, `${side} is required (an Envoy config_dump JSON)`);
  const parsed = DriftRequestSchema.safeParse(body);
  if (!parsed.success)
    return fail(
      400,
      `invalid drift request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`,
    );
  const { expected, actual } = parsed.data;
  try {
    return ok(computeDrift(expected, actual));
  } catch (e) {
    if (e instanceof DriftInputError) return fail(400, `unusable config dump: ${e.message}`);
    throw e;
  }
}
