// Plain fetch functions for the UI's API (no react-query here; hooks wrap these).
import type { ProxyCounts, ProxyDetail, ProxySummary } from '@/server/api/proxies';
import type { XdsState } from '@/server/api/types';
import type { LoadError } from '@/server/model/mesh';
import type { SourceStatus } from '@/server/sources/types';

export interface ProxiesResponse {
  version: number;
  proxies: ProxySummary[];
  /** False when some proxies have no counts yet (large meshes: ask fetchProxyCounts for the rows shown). */
  countsComplete?: boolean;
}

export interface ProxyCountsResponse {
  version: number;
  counts: Record<string, ProxyCounts>;
}

export interface ErrorsResponse {
  version: number;
  errors: LoadError[];
  sources: SourceStatus[];
  xds: XdsState;
}

/** GET a JSON API; a non-2xx answer throws with the server's `error` text when it has one. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal: signal ?? null, headers: { accept: 'application/json' } });
  if (!res.ok) {
    let msg = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: string };
      if (body.error) msg = body.error;
    } catch {
      /* not JSON */
    }
    throw new Error(msg);
  }
  return (await res.json()) as T;
}

export const fetchProxies = (signal?: AbortSignal) => getJson<ProxiesResponse>('/api/proxies', signal);
export const fetchProxy = (id: string, signal?: AbortSignal) => getJson<ProxyDetail>(`/api/proxies/${encodeURIComponent(id)}`, signal);
export const fetchErrors = (signal?: AbortSignal) => getJson<ErrorsResponse>('/api/errors', signal);
export const fetchProxyCounts = (ids: readonly string[], signal?: AbortSignal) =>
  getJson<ProxyCountsResponse>(`/api/proxies?counts=${ids.map(encodeURIComponent).join(',')}`, signal);
