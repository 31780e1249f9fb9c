// Fetchers for the overview graph (/api/graph) and istiod-style sync status (/debug/syncz).
import type { MeshGraph } from '@/server/api/meshGraph';
import { getJson } from './fetchers';

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

export const fetchGraph = (signal?: AbortSignal) => getJson<MeshGraph>('/api/graph', signal);
export const fetchSyncz = (signal?: AbortSignal) => getJson<SyncEntry[]>('/debug/syncz', signal);
