// POST /api/simulate: fetcher and query keys. A mesh proxy's trace sits under queryKeys.proxy(id), so a
// mesh event naming the proxy (prefix invalidation) re-runs it; an uploaded dump's trace is keyed by a
// fingerprint of the dump.
import type { SimulateBody, SimulateResponse } from '@/server/api/contract';
import type { SimRequest } from '@/server/simulate/types';
import { queryKeys } from './queryKeys';
import { csrfHeader } from './csrf';

export const simulateKeys = {
  proxy: (id: string, request: SimRequest) => [...queryKeys.proxy(id), 'simulate', JSON.stringify(request)] as const,
  dump: (fingerprint: string, request: SimRequest) => [...queryKeys.all, 'dump-simulate', fingerprint, JSON.stringify(request)] as const,
};

/** A cheap, stable identity for a dump (FNV-1a over its JSON text, plus the length). */
export function dumpFingerprint(dump: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(dump) ?? 'undefined';
  } catch {
    text = String(dump);
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length.toString(36)}-${h.toString(36)}`;
}

export async function postSimulate(body: SimulateBody, signal?: AbortSignal): Promise<SimulateResponse> {
  const res = await fetch('/api/simulate', {
    method: 'POST',
    signal: signal ?? null,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...csrfHeader() },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as SimulateResponse & { error?: string };
  if (!res.ok) throw new Error(json.error ?? `${res.status} ${res.statusText}`);
  return json;
}
