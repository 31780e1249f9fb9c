// POST /api/drift {expected, actual} (two Envoy config dumps) → the drift body; and meshscope's own dump of a
// proxy (GET /debug/config_dump?proxyID=) to use as the expected side. Plain fetch functions (no react-query).
import type { DriftBody, DriftRequest } from '@/server/api/contract';
import { csrfHeader } from './csrf';
import { getJson } from './fetchers';

export async function postDrift(body: DriftRequest, signal?: AbortSignal): Promise<DriftBody> {
  const res = await fetch('/api/drift', {
    method: 'POST',
    signal: signal ?? null,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...csrfHeader() },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as DriftBody & { error?: string };
  if (!res.ok) throw new Error(json.error ?? `${res.status} ${res.statusText}`);
  return json;
}

/** meshscope's translation of a proxy as a config dump (what istiod's /debug/config_dump prints). */
export const fetchMeshscopeDump = (proxyId: string, signal?: AbortSignal): Promise<unknown> =>
  getJson<unknown>(`/debug/config_dump?proxyID=${encodeURIComponent(proxyId)}`, signal);
