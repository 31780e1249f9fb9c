// ApiResult → Web Response (used by app/api and /debug route adapters). `?pretty` indents like istiod.
// And reading request bodies under a byte limit, counted while they stream (never buffered past it).
import { DEFAULT_MAX_BODY_BYTES } from './runtimeConfig';
import { fail, type ApiResult } from './types';

export function toResponse(result: ApiResult, url?: string): Response {
  const pretty = url ? new URL(url, 'http://x').searchParams.has('pretty') : false;
  return new Response(JSON.stringify(result.body, null, pretty ? 2 : undefined), {
    status: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

import { type LimitedBody, readLimited } from '../lib/readLimited';

export { type LimitedBody, readLimited };

/** 413 with the limit in the message. */
export const tooLarge = (limit: number): ApiResult => fail(413, `request body is larger than ${limit} bytes`);

/**
 * A JSON request body under `limit` bytes: 413 beyond it (a declared Content-Length is refused before
 * reading), 400 for bytes that are not UTF-8 or not JSON. Never throws.
 */
export async function readJsonBody(
  req: Request,
  limit = DEFAULT_MAX_BODY_BYTES,
): Promise<{ body: unknown; error?: undefined } | { error: ApiResult; body?: undefined }> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return { error: tooLarge(limit) };
  let read: LimitedBody;
  try {
    read = await readLimited(req.body, limit);
  } catch (e) {
    return { error: fail(400, `request body could not be read: ${(e as Error).message}`) };
  }
  if (read.tooLarge) return { error: tooLarge(limit) };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return { error: fail(400, 'request body is not UTF-8') };
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (e) {
    return { error: fail(400, `body is not JSON: ${(e as Error).message}`) };
  }
}

/** A body serialised elsewhere (a CPU worker's answer) → Response; `?pretty` re-indents it. */
export function jsonTextResponse(answer: { status: number; json: string; headers?: Record<string, string> }, url?: string): Response {
  const pretty = url ? new URL(url, 'http://x').searchParams.has('pretty') : false;
  return new Response(pretty ? JSON.stringify(JSON.parse(answer.json), null, 2) : answer.json, {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...answer.headers },
  });
}
