// POST /api/simulate `{proxyId, request, config: "live"}`: the trace of a request on the pod's own Envoy config
// (issue 21 §4). The pod's dump is read from the runtime's LiveSource (port-forward with `serve --live-config`,
// or the `--bug-report` archive) on the request thread, then simulated in the CPU pool exactly as an uploaded
// dump is (`{dump, request}`), and the answer says where the dump came from (`live`). A read that fails answers
// /live's classified statuses (403 / 404 / 502 / 504 `{"error", "stage"}`), never a 500. Any other body passes
// through unchanged (old requests answer as before).
import type { LiveSource } from '../live/types';
import { fetchLive, type LiveErrorBody } from './live';
import { issues, ProxyBodySchema, type SimulateLiveInfo } from './simulate';
import type { ApiResult } from './types';

export type ResolvedSimulate =
  | { body: unknown; live?: undefined; failure?: undefined }
  | { body: { dump: unknown; request: unknown }; live: SimulateLiveInfo; failure?: undefined }
  | { failure: ApiResult<LiveErrorBody | { error: string }>; body?: undefined; live?: undefined };

const wantsLive = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { config?: unknown }).config === 'live';

/** The body the CPU pool simulates: unchanged, or (config "live") the pod's dump in the `{dump, request}` form. */
export async function resolveSimulateBody(body: unknown, source: LiveSource | undefined): Promise<ResolvedSimulate> {
  if (!wantsLive(body)) return { body };
  const parsed = ProxyBodySchema.safeParse(body);
  if (!parsed.success) return { failure: { status: 400, body: { error: `invalid simulate request: ${issues(parsed.error)}` } } };
  const got = await fetchLive(source, parsed.data.proxyId);
  if ('failure' in got) return { failure: got.failure };
  const { dump } = got;
  return {
    body: { dump: dump.configDump, request: (body as { request: unknown }).request },
    live: { source: dump.source, fetchedAt: dump.fetchedAt, bytes: dump.bytes },
  };
}

/** The pool's answer with `live` added (a 200 only: errors are answered as they are). */
export function withLiveInfo<A extends { status: number; json: string }>(answer: A, live: SimulateLiveInfo | undefined): A {
  if (!live || answer.status !== 200) return answer;
  const result = JSON.parse(answer.json) as Record<string, unknown>;
  return { ...answer, json: JSON.stringify({ ...result, live }) };
}
