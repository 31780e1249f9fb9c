// Prometheus's HTTP API, the one call meshscope makes: GET /api/v1/query (an instant vector), over plain
// HTTP(S) with a time budget, a cap on the body's bytes and on the series, and the answer validated with
// a schema (https://prometheus.io/docs/prometheus/latest/querying/api/#instant-queries). Never throws
// anything but PrometheusError.
import { z } from 'zod';
import { readLimited } from '../lib/readLimited';

export const DEFAULT_TIMEOUT_MS = 5000;
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
export const MAX_SERIES = 20_000;

export interface Sample {
  metric: Record<string, string>;
  value: number;
}

export class PrometheusError extends Error {
  constructor(
    message: string,
    /** unreachable: no answer (refused, timed out, not Prometheus); query: Prometheus refused the query; limit: too big. */
    readonly kind: 'unreachable' | 'query' | 'limit',
  ) {
    super(message);
    this.name = 'PrometheusError';
  }
}

const Vector = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) })),
  }),
  warnings: z.array(z.string()).optional(),
});
const Failure = z.object({ status: z.literal('error'), errorType: z.string(), error: z.string() });

export interface QueryOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxSeries?: number;
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const body = await readLimited(res.body, maxBytes);
  if (body.tooLarge) throw new PrometheusError(`the answer is larger than ${maxBytes} bytes`, 'limit');
  return Buffer.from(body.bytes).toString('utf8');
}

/** `url` is the Prometheus base (`http://host:9090`, a path prefix allowed); `query` PromQL. */
export async function instantQuery(url: string, query: string, o: QueryOptions = {}): Promise<Sample[]> {
  const endpoint = `${url.replace(/\/+$/, '')}/api/v1/query`;
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let res: Response;
  let text: string;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ query, timeout: `${Math.max(1, Math.floor(timeoutMs / 1000))}s` }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await readCapped(res, o.maxBytes ?? MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof PrometheusError) throw e;
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err.cause?.code ?? err.cause?.message ?? err.message);
    throw new PrometheusError(`${endpoint}: ${why}`, 'unreachable');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PrometheusError(`${endpoint}: HTTP ${res.status}, not a Prometheus API answer (not JSON)`, 'unreachable');
  }
  const failed = Failure.safeParse(json);
  if (failed.success)
    throw new PrometheusError(`${endpoint}: ${failed.data.errorType}: ${failed.data.error}`, res.status >= 500 ? 'unreachable' : 'query');
  const ok = Vector.safeParse(json);
  if (!ok.success) {
    const issue = ok.error.issues[0];
    throw new PrometheusError(
      `${endpoint}: HTTP ${res.status}, unexpected answer at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      'unreachable',
    );
  }
  const max = o.maxSeries ?? MAX_SERIES;
  if (ok.data.data.result.length > max)
    throw new PrometheusError(`${endpoint}: ${ok.data.data.result.length} series (more than ${max})`, 'limit');
  return ok.data.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/** A PromQL string literal (double-quoted; backslash, quote and newlines escaped). */
export function promString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** `s` as a literal inside an RE2 regex (every metacharacter escaped), before promString quotes it. */
export function regexLiteral(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
