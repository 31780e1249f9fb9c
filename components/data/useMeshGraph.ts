'use client';
import { useQuery } from '@tanstack/react-query';
import type { MeshGraph, SyncStatus } from '@/server/api/contract';
import { fetchGraph, fetchSyncz } from './meshFetchers';
import { meshKeys } from './meshKeys';

/** The overview graph; seeded by the server render, refetched on mesh events. */
export function useMeshGraph(initialData?: MeshGraph) {
  return useQuery({ queryKey: meshKeys.graph(), queryFn: ({ signal }) => fetchGraph(signal), ...(initialData ? { initialData } : {}) });
}

/** Connected xDS clients and their per-type sync state; refetched on mesh events and on demand. */
export function useSyncz(initialData?: SyncStatus[]) {
  return useQuery({ queryKey: meshKeys.syncz(), queryFn: ({ signal }) => fetchSyncz(signal), ...(initialData ? { initialData } : {}) });
}
