// Fetchers for the overview graph (/api/graph) and istiod-style sync status (/debug/syncz).
import type { SyncStatus } from '@/server/api/contract';
import type { GraphType, TypedGraph } from '@/server/meshGraph/graphType';
import { getJson } from './fetchers';

export const fetchGraph = (signal?: AbortSignal, type: GraphType = 'proxy') =>
  getJson<TypedGraph>(type === 'proxy' ? '/api/graph' : `/api/graph?graphType=${encodeURIComponent(type)}`, signal);
export const fetchSyncz = (signal?: AbortSignal) => getJson<SyncStatus[]>('/debug/syncz', signal);
