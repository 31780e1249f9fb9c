'use client';
import { useQuery } from '@tanstack/react-query';
import type { SyncStatus } from '@/server/api/contract';
import type { GraphType, TypedGraph } from '@/server/meshGraph/graphType';
import { fetchGraph, fetchSyncz } from './meshFetchers';
import { meshKeys } from './meshKeys';

/**
 * The overview graph of a type (Kiali's, or per proxy); seeded by the server render, refetched on mesh
 * events. With `traffic` (a Prometheus source is configured) the edges carry observed traffic
 * (`/api/graph?traffic=1`), refreshed every `trafficEveryMs`.
 */
export function useMeshGraph(type: GraphType, initialData?: TypedGraph, traffic = false, trafficEveryMs = 5000) {
  return useQuery({
    queryKey: meshKeys.graph(type, traffic),
    queryFn: ({ signal }) => fetchGraph(signal, type, traffic),
    // The server render's graph (config only) seeds only the type it was rendered for.
    ...(initialData && initialData.graphType === type && !traffic ? { initialData } : {}),
    ...(traffic ? { refetchInterval: trafficEveryMs, refetchIntervalInBackground: false } : {}),
  });
}

/** Connected xDS clients and their per-type sync state; refetched on mesh events and on demand. */
export function useSyncz(initialData?: SyncStatus[]) {
  return useQuery({ queryKey: meshKeys.syncz(), queryFn: ({ signal }) => fetchSyncz(signal), ...(initialData ? { initialData } : {}) });
}
