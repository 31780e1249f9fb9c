// Plain fetch functions for the UI's API (no react-query here; hooks wrap these). Response types are the
// server's own (server/api/contract.ts), never re-declared here.
import type { ErrorsResponse, MeshConfigResponse, ProxiesResponse, ProxyCountsResponse, ProxyDetail } from '@/server/api/contract';

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
/** One proxy without the summary tables: the proxy page builds its rows from the config dump (`?tables=0`). */
export const fetchProxy = (id: string, signal?: AbortSignal) =>
  getJson<ProxyDetail>(`/api/proxies/${encodeURIComponent(id)}?tables=0`, signal);
export const fetchErrors = (signal?: AbortSignal) => getJson<ErrorsResponse>('/api/errors', signal);
export const fetchProxyCounts = (ids: readonly string[], signal?: AbortSignal) =>
  getJson<ProxyCountsResponse>(`/api/proxies?counts=${ids.map(encodeURIComponent).join(',')}`, signal);
export const fetchMeshConfig = (signal?: AbortSignal) => getJson<MeshConfigResponse>('/api/mesh', signal);
