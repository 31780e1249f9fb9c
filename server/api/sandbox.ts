// POST /api/sandbox/evaluate: `{draft, proxies?, requests?, contracts?}` → EvaluateResult (README "Sandbox
// API"). A draft that does not parse or validate is still a 200 with located `errors` — only a body that is
// not the documented shape is a 400, and one over SANDBOX_BODY_LIMIT a 413. Never throws.
import { readLimited } from '../lib/readLimited';
import { z } from 'zod';
import { contractRequestSchema, contractSchema, toContract } from '../sandbox/contracts';
import { evaluate } from '../sandbox/evaluate';
import type { EvaluateResult, RequestCheck } from '../sandbox/types';
import type { SimRequest } from '../simulate/types';
import { fail, ok, type ApiContext, type ApiResult } from './types';

/** Largest request body accepted (bytes): 1 MiB. */
export const SANDBOX_BODY_LIMIT = 1024 * 1024;

const checkSchema = z.strictObject({ name: z.string().max(200).optional(), proxy: z.string().min(1), request: contractRequestSchema });

export const evaluateBodySchema = z.strictObject({
  draft: z.string(),
  proxies: z.array(z.string().min(1)).max(100).optional(),
  // Request checks run in a CPU worker under a time budget (server/isolate): up to 1,000 of them.
  requests: z.array(checkSchema).max(1000).optional(),
  contracts: z.array(contractSchema).max(500).optional(),
});

export type EvaluateBody = z.input<typeof evaluateBodySchema>;

const clean = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function evaluateSandbox(ctx: ApiContext, body: unknown): ApiResult<EvaluateResult | { error: string }> {
  const parsed = evaluateBodySchema.safeParse(body);
  if (!parsed.success)
    return fail(
      400,
      `invalid sandbox request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`,
    );
  const b = parsed.data;
  if (Buffer.byteLength(b.draft, 'utf8') > SANDBOX_BODY_LIMIT) return fail(413, `draft is larger than ${SANDBOX_BODY_LIMIT} bytes`);
  const requests: RequestCheck[] = (b.requests ?? []).map((r) => clean({ ...r, request: r.request as SimRequest }));
  try {
    const { result } = evaluate(
      {
        snapshot: ctx.snapshot,
        inputs: ctx.inputs?.() ?? [],
        ...(ctx.cache ? { cache: ctx.cache } : {}),
        ...(ctx.sandboxParts ? { parts: ctx.sandboxParts } : {}),
      },
      b.draft,
      {
        options: ctx.options,
        ...(b.proxies ? { proxies: b.proxies } : {}),
        requests,
        ...(b.contracts ? { contracts: b.contracts.map(toContract) } : {}),
      },
    );
    return ok(result);
  } catch (e) {
    // The engine does not throw on any input; a bug must still not become a bare 500.
    return fail(500, `internal: sandbox evaluation failed: ${(e as Error).message}`);
  }
}

/**
 * Reads a request body as JSON with a byte limit: `{status: 413}` when over it (by Content-Length or by
 * what arrives), 400 when not JSON. Streams, so a huge body is never held whole.
 */
export async function readLimitedJson(
  req: Request,
  limit = SANDBOX_BODY_LIMIT,
): Promise<{ body?: unknown; status?: number; error?: string }> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) return { status: 413, error: `request body is larger than ${limit} bytes` };
  const read = await readLimited(req.body, limit);
  if (read.tooLarge) return { status: 413, error: `request body is larger than ${limit} bytes` };
  const text = Buffer.from(read.bytes).toString('utf8');
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (e) {
    return { status: 400, error: `body is not JSON: ${(e as Error).message}` };
  }
}
