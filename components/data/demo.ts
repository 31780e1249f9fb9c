'use client';
// The demo page's data: the live traffic counters (polled) and the one function every demo change goes
// through — the sandbox's apply path (POST /api/sandbox/apply with the draft, then confirm) and its reset.
import { useQuery } from '@tanstack/react-query';
import type { TrafficReport } from '@/server/api/contract';
import { getJson } from './fetchers';
import { queryKeys } from './queryKeys';
import { csrfHeader } from './csrf';

export type { ServiceTraffic, TrafficReport } from '@/server/api/contract';

export const fetchDemoTraffic = (windowSeconds: number, signal?: AbortSignal) =>
  getJson<TrafficReport>(`/api/demo/traffic?window=${windowSeconds}`, signal);

/** The counters of the last `windowSeconds`, refreshed every `everyMs`. */
export function useDemoTraffic(windowSeconds: number, everyMs = 500) {
  return useQuery({
    queryKey: queryKeys.demoTraffic(windowSeconds),
    queryFn: ({ signal }) => fetchDemoTraffic(windowSeconds, signal),
    refetchInterval: everyMs,
    refetchIntervalInBackground: false,
  });
}

export interface ApplyResult {
  ok: boolean;
  message: string;
}

async function post(url: string, token: string, body?: unknown): Promise<ApplyResult> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...csrfHeader(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => ({}))) as {
    error?: string;
    errors?: { message?: string }[];
    applied?: boolean;
    message?: string;
    items?: { message?: string }[];
  };
  if (!res.ok) return { ok: false, message: [json.error ?? `${res.status}`, ...(json.errors ?? []).map((e) => e.message)].join(': ') };
  if (json.applied === false)
    return {
      ok: false,
      message:
        json.message ??
        json.items
          ?.map((i) => i.message)
          .filter(Boolean)
          .join('; ') ??
        'not applied',
    };
  return { ok: true, message: 'applied' };
}

/** Applies a draft through the sandbox (README "Sandbox apply"): the demo's only write path. */
export const applyDraft = (draft: string, token: string): Promise<ApplyResult> =>
  post('/api/sandbox/apply', token, { draft, confirm: true });

/** Back to the demo mesh as shipped (the sandbox's reset of the demo overlay). */
export const resetDemo = (token: string): Promise<ApplyResult> => post('/api/sandbox/reset', token);
