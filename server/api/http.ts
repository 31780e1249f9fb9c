// ApiResult → Web Response (used by app/api and /debug route adapters). `?pretty` indents like istiod.
import type { ApiResult } from './types';

export function toResponse(result: ApiResult, url?: string): Response {
  const pretty = url ? new URL(url, 'http://x').searchParams.has('pretty') : false;
  return new Response(JSON.stringify(result.body, null, pretty ? 2 : undefined), {
    status: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
