// Fetchers for the overview graph (/api/graph) and istiod-style sync status (/debug/syncz).
import type { MeshGraph, SyncStatus } from '@/server/api/contract';
import { getJson } from './fetchers';

export const fetchGraph = (signal?: AbortSignal) => getJson<MeshGraph>('/api/graph', signal);
export const fetchSyncz = (signal?: AbortSignal) => getJson<SyncStatus[]>('/debug/syncz', signal);
