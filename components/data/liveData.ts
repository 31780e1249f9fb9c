'use client';
// The pod's own Envoy config (GET /api/proxies/POD.NS/live) and its drift against meshscope's
// (…/drift): fetched only when a Live / Drift tab or the proxies table's drift column asks, never
// retried on a classified failure (403 / 404 / 502 / 504 carry `{error, stage}`, shown as they are).
import { useQuery } from '@tanstack/react-query';
import type { DriftResponse, LiveErrorBody, LiveResponse } from '@/server/api/contract';
import { queryKeys } from './queryKeys';

/** A classified failure of /live or /drift: the HTTP status, the message and the stage that failed. */
export class LiveFetchError extends Error {
  constructor(
    readonly status: number,
    readonly stage: string,
    message: string,
  ) {
    super(message);
    this.name = 'LiveFetchError';
  }
}

async function getLive<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal: signal ?? null, headers: { accept: 'application/json' } });
  if (res.ok) return (await res.json()) as T;
  let body: Partial<LiveErrorBody> = {};
  try {
    body = (await res.json()) as Partial<LiveErrorBody>;
  } catch {
    /* not JSON */
  }
  throw new LiveFetchError(res.status, body.stage ?? 'http', body.error ?? `${res.status} ${res.statusText}`);
}

export const fetchLive = (id: string, signal?: AbortSignal) => getLive<LiveResponse>(`/api/proxies/${encodeURIComponent(id)}/live`, signal);
/** `summary`: without the resource bodies (`?bodies=0`, what the proxies table needs). */
export const fetchDrift = (id: string, signal?: AbortSignal, summary = false) =>
  getLive<DriftResponse>(`/api/proxies/${encodeURIComponent(id)}/drift${summary ? '?bodies=0' : ''}`, signal);

const once = { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } as const;

export function useLive(id: string) {
  return useQuery({ queryKey: queryKeys.live(id), queryFn: ({ signal }) => fetchLive(id, signal), ...once });
}

/**
 * Keyed by snapshot `version`: meshscope's side follows the snapshot, so a new one compares again.
 * `enabled: false` keeps a row's drift unfetched until it is shown.
 */
export function useDrift(id: string, version: number, opts: { enabled?: boolean; summary?: boolean } = {}) {
  const summary = opts.summary === true;
  return useQuery({
    queryKey: queryKeys.drift(id, version, summary),
    queryFn: ({ signal }) => fetchDrift(id, signal, summary),
    enabled: opts.enabled ?? true,
    ...once,
  });
}

/** The proxies table's one-word drift state. */
export type DriftState =
  | { kind: 'pending' }
  | { kind: 'in-sync' }
  | { kind: 'differs'; count: number }
  | { kind: 'rejected'; count: number }
  | { kind: 'not-fetched'; reason: string };

export function driftState(data: DriftResponse | undefined, error: unknown, pending: boolean): DriftState {
  if (data) {
    if (data.nacked.length > 0) return { kind: 'rejected', count: data.nacked.length };
    if (data.inSync) return { kind: 'in-sync' };
    return { kind: 'differs', count: data.resources.filter((r) => r.class !== 'unmodelled').length };
  }
  if (error) return { kind: 'not-fetched', reason: (error as Error).message };
  return pending ? { kind: 'pending' } : { kind: 'not-fetched', reason: 'not asked yet' };
}
