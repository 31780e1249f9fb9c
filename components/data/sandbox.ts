// The sandbox's HTTP calls (issue #9 §2/§4) and their query keys: POST /api/sandbox/evaluate, the live
// Istio objects (/debug/configz) the sandbox loads and suggests subsets from, and apply / demo reset.
import type { ConfigObjectResult } from '@/server/api/configObject';
import type { EvaluateResult, RequestCheck, RoutingContract } from '@/server/sandbox/types';
import { getJson } from './fetchers';
import { queryKeys } from './queryKeys';

export interface EvaluateBody {
  draft: string;
  proxies?: string[];
  requests?: RequestCheck[];
  contracts?: RoutingContract[];
}

/** A live Istio object as /debug/configz prints it (Kubernetes shape). */
export interface LiveConfig {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace: string; [k: string]: unknown };
  spec: Record<string, unknown>;
}

/** What the server allows for apply (GET /api/sandbox/apply). */
export interface ApplyCapability {
  allowed: boolean;
  /** demo | files | cluster */
  source?: string;
  /** Apply requests must carry `Authorization: Bearer <token>` (the token `serve` printed). */
  tokenRequired?: boolean;
  /** Why apply is off, in words. */
  reason?: string;
}

export interface ApplyResult {
  applied?: string[];
  message?: string;
  dryRun?: unknown;
}

export const sandboxKeys = {
  // Under queryKeys.proxies(): a mesh event (live config changed) re-evaluates the draft against it.
  evaluate: (body: EvaluateBody) => [...queryKeys.proxies(), 'sandbox', JSON.stringify(body)] as const,
  liveConfigs: () => [...queryKeys.proxies(), 'configz'] as const,
  applyCapability: () => [...queryKeys.all, 'sandbox-apply'] as const,
};

/** A JSON POST; a non-2xx answer throws with the server's `error` text and the status. */
async function postJson<T>(url: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    signal: signal ?? null,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw Object.assign(new Error(json.error ?? `${res.status} ${res.statusText}`), { status: res.status });
  return json;
}

export const postEvaluate = (body: EvaluateBody, signal?: AbortSignal) => postJson<EvaluateResult>('/api/sandbox/evaluate', body, signal);
export const fetchLiveConfigs = (signal?: AbortSignal) => getJson<LiveConfig[]>('/debug/configz', signal);
export const fetchConfigByPath = (path: string, signal?: AbortSignal) =>
  getJson<ConfigObjectResult>(`/api/config?path=${encodeURIComponent(path)}`, signal);

/** Apply is off unless the server says otherwise; a server without the endpoint says why. */
export async function fetchApplyCapability(signal?: AbortSignal): Promise<ApplyCapability> {
  const res = await fetch('/api/sandbox/apply', { signal: signal ?? null, headers: { accept: 'application/json' } });
  if (res.status === 404) return { allowed: false, reason: 'this server has no apply endpoint' };
  const json = (await res.json().catch(() => ({}))) as ApplyCapability & { error?: string };
  if (!res.ok) return { allowed: false, reason: json.error ?? `${res.status} ${res.statusText}` };
  return json;
}

export const postApply = (draft: string, token: string | undefined, dryRun = false) =>
  postJson<ApplyResult>('/api/sandbox/apply', { draft, dryRun }, undefined, token ? { authorization: `Bearer ${token}` } : {});
export const postDemoReset = (token: string | undefined) =>
  postJson<ApplyResult>('/api/demo/reset', {}, undefined, token ? { authorization: `Bearer ${token}` } : {});
