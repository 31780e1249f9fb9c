// Fetchers for the overview graph (/api/graph) and istiod-style sync status (/debug/syncz).
import type { SyncStatus } from '@/server/api/contract';
import type { GraphType, TypedGraph } from '@/server/meshGraph/graphType';
import { getJson } from './fetchers';

export function fetchGraph(signal?: AbortSignal, type: GraphType = 'proxy', traffic = false) {
  const q = new URLSearchParams();
  if (type !== 'proxy') q.set('graphType', type);
  if (traffic) q.set('traffic', '1');
  const qs = q.toString();
  return getJson<TypedGraph>(`/api/graph${qs ? `?${qs}` : ''}`, signal);
}
export const fetchSyncz = (signal?: AbortSignal) => getJson<SyncStatus[]>('/debug/syncz', signal);
