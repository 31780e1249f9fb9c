// The sandbox's HTTP calls (issue #9 §2/§4) and their query keys: POST /api/sandbox/evaluate, the live
// Istio objects (/debug/configz) the sandbox loads and suggests subsets from, and apply / demo reset
// (bearer token; README "HTTP endpoints").
import type { ApplyOutcome, ConfigObjectResult } from '@/server/api/contract';
import type { EvaluateResult, RequestCheck, RoutingContract } from '@/server/sandbox/types';
import { getJson } from './fetchers';
import { queryKeys } from './queryKeys';
import { csrfHeader } from './csrf';

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

export const sandboxKeys = {
  // Under queryKeys.proxies(): a mesh event (live config changed) re-evaluates the draft against it.
  evaluate: (body: EvaluateBody) => [...queryKeys.proxies(), 'sandbox', JSON.stringify(body)] as const,
  liveConfigs: () => [...queryKeys.proxies(), 'configz'] as const,
};

/** A JSON POST; a non-2xx answer throws with the server's `error` text and the status. */
async function postJson<T>(url: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    signal: signal ?? null,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...csrfHeader(), ...headers },
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

/** POST /api/sandbox/apply: without `confirm` the plan only (a cluster runs its server-side dry run). */
export const postApply = (draft: string, token: string, confirm: boolean) =>
  postJson<ApplyOutcome>('/api/sandbox/apply', { draft, confirm }, undefined, { authorization: `Bearer ${token}` });
/** POST /api/sandbox/reset: the demo mesh back to what it embeds. */
export const postDemoReset = (token: string) =>
  postJson<{ reset: true }>('/api/sandbox/reset', {}, undefined, { authorization: `Bearer ${token}` });
