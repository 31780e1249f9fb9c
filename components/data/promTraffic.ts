'use client';
// GET /api/traffic?service=HOST&window=S (#23 §1): what Prometheus observed for one service, beside the
// configured split. Polled by the /demo page's third column. A failure keeps its status: 503 names the
// Prometheus URL that does not answer; another status (Prometheus not configured) gets the how-to.
import { useQuery } from '@tanstack/react-query';
import type { TrafficResponse } from '@/server/api/contract';
import { queryKeys } from './queryKeys';

/** The body of GET /api/traffic (issue #23 §1; server/api/traffic.ts). */
export type PrometheusTraffic = TrafficResponse;

export type PrometheusAnswer = { ok: true; body: PrometheusTraffic } | { ok: false; status: number; error: string };

export async function fetchPrometheusTraffic(host: string, windowSeconds: number, signal?: AbortSignal): Promise<PrometheusAnswer> {
  const res = await fetch(`/api/traffic?service=${encodeURIComponent(host)}&window=${windowSeconds}`, {
    signal: signal ?? null,
    headers: { accept: 'application/json' },
  });
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (res.ok) return { ok: true, body: body as PrometheusTraffic };
  const error = (body as { error?: string } | undefined)?.error ?? `${res.status} ${res.statusText}`;
  return { ok: false, status: res.status, error };
}

/** Prometheus's view of `host`, refreshed every `everyMs` (its scrape interval is the real resolution). */
export function usePrometheusTraffic(host: string | undefined, windowSeconds: number, everyMs = 2000) {
  return useQuery({
    queryKey: [...queryKeys.demoTraffic(windowSeconds), 'prometheus', host ?? ''],
    queryFn: ({ signal }) => fetchPrometheusTraffic(host!, windowSeconds, signal),
    enabled: host !== undefined,
    refetchInterval: everyMs,
    refetchIntervalInBackground: false,
  });
}
