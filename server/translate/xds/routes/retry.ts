// HTTPRetry → Envoy RetryPolicy (istio route/retry/retry.go:ConvertPolicy, DefaultPolicy).
import type { RetryPolicyJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRetry } from '../../../model/istio';
import { normalizeDuration } from '../../../lib/duration';

export const PREVIOUS_HOSTS_PREDICATE = 'envoy.retry_host_predicates.previous_hosts';
export const PREVIOUS_HOSTS_TYPE = 'type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate';
export const PREVIOUS_PRIORITIES = 'envoy.retry_priorities.previous_priorities';
export const PREVIOUS_PRIORITIES_TYPE =
  'type.googleapis.com/envoy.extensions.retry.priority.previous_priorities.v3.PreviousPrioritiesConfig';

export const DEFAULT_RETRY_ON = 'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes';

/** Go net/http StatusText(code) != "" — the codes Istio accepts as retriable status codes. */
const KNOWN_STATUS = new Set<number>([
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404,
  405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502,
  503, 504, 505, 506, 507, 508, 510, 511,
]);

const previousHosts = () => ({ name: PREVIOUS_HOSTS_PREDICATE, typedConfig: { '@type': PREVIOUS_HOSTS_TYPE } });

/** defaultPolicy(): 2 retries on connect-failure…, 503 retriable, host selection 5 attempts; previous-hosts predicate unless consistent hash. */
export function defaultRetryPolicy(consistentHash = false): RetryPolicyJson {
  const p: RetryPolicyJson = {
    retryOn: DEFAULT_RETRY_ON,
    numRetries: 2,
    hostSelectionRetryMaxAttempts: '5',
    retriableStatusCodes: [503],
  };
  if (!consistentHash) p.retryHostPredicate = [previousHosts()];
  return p;
}

/** parseRetryOn: numeric known HTTP codes → retriable_status_codes, the rest joined back with ",". */
export function parseRetryOn(retryOn: string): { retryOn: string; codes: number[] } {
  retryOn = String(retryOn);
  const codes: number[] = [];
  const parts: string[] = [];
  for (const raw of retryOn.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const n = /^[+-]?\d+$/.test(part) ? Number(part) : NaN;
    if (Number.isInteger(n) && KNOWN_STATUS.has(n)) codes.push(n);
    else parts.push(part);
  }
  return { retryOn: parts.join(','), codes };
}

export interface RetryResult {
  policy?: RetryPolicyJson;
  /** Field-relative problems (e.g. `perTryTimeout`), for the caller to locate. */
  problems: { field: string; message: string }[];
}

/** ConvertPolicy: undefined → default; attempts <= 0 → no policy; else default overridden by the given fields. */
export function convertRetryPolicy(inPolicy: HTTPRetry | undefined, consistentHash: boolean): RetryResult {
  const problems: RetryResult['problems'] = [];
  const out = defaultRetryPolicy(consistentHash);
  if (!inPolicy) return { policy: out, problems };
  const attempts = Number(inPolicy.attempts ?? 0);
  if (!(attempts > 0)) return { problems };
  if (!Number.isFinite(attempts) || attempts > 0xffffffff)
    return { problems: [{ field: 'attempts', message: `invalid attempts ${String(inPolicy.attempts)}` }] };
  out.numRetries = Math.trunc(attempts);
  if (typeof inPolicy.retryOn === 'string' && inPolicy.retryOn) {
    const parsed = parseRetryOn(inPolicy.retryOn);
    out.retryOn = parsed.retryOn;
    if (parsed.codes.length) out.retriableStatusCodes = parsed.codes;
    else delete out.retriableStatusCodes;
    if (parsed.codes.length > 0 && !out.retryOn.includes('retriable-status-codes')) out.retryOn += ',retriable-status-codes';
  }
  if (inPolicy.perTryTimeout !== undefined) {
    const d = normalizeDuration(inPolicy.perTryTimeout);
    if (d === undefined) problems.push({ field: 'perTryTimeout', message: `invalid duration "${String(inPolicy.perTryTimeout)}"` });
    else out.perTryTimeout = d;
  }
  if (inPolicy.retryIgnorePreviousHosts !== undefined) {
    if (inPolicy.retryIgnorePreviousHosts) out.retryHostPredicate = [previousHosts()];
    else delete out.retryHostPredicate;
  }
  if (inPolicy.retryRemoteLocalities === true) {
    out.retryPriority = {
      name: PREVIOUS_PRIORITIES,
      typedConfig: { '@type': PREVIOUS_PRIORITIES_TYPE, updateFrequency: 2 } as { '@type': string },
    };
  }
  if (inPolicy.backoff !== undefined) {
    const d = normalizeDuration(inPolicy.backoff);
    if (d === undefined) problems.push({ field: 'backoff', message: `invalid duration "${String(inPolicy.backoff)}"` });
    else out.retryBackOff = { baseInterval: d };
  }
  return { policy: out, problems };
}
