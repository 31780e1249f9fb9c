// Fetchers for the overview graph (/api/graph) and istiod-style sync status (/debug/syncz).
import type { MeshGraph } from '@/server/api/meshGraph';

/** One /debug/syncz entry as meshscope's ADS server prints it (istiod's SyncStatus plus `sync`/`nacks`). */
export interface SyncEntry {
  proxy?: string;
  proxy_type?: string;
  connection_id?: string;
  /** Sync state per short type: cluster, listener, route, endpoint. */
  sync?: Record<string, string>;
  /** Last NACK per short type. */
  nacks?: Record<string, { nonce: string; version: string; message: string; code: number; time: string }>;
  /** Present when the server knows the client kind (GENERATOR metadata); `grpc` = proxyless. */
  generator?: string;
  flavour?: string;
  [k: string]: unknown;
}

async function json<T>(url: string, signal?: AbortSignal): Promise<T> {
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

export const fetchGraph = (signal?: AbortSignal) => json<MeshGraph>('/api/graph', signal);
export const fetchSyncz = (signal?: AbortSignal) => json<SyncEntry[]>('/debug/syncz', signal);
