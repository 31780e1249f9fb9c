'use client';
// Hooks for the proxy page's extra data: one Istio config object by provenance path (the "source
// rule" panel) and a proxy's ADS sync state. Keys sit under queryKeys.proxy(id) / queryKeys.all, so
// the existing mesh-event invalidation (prefix match) refreshes them too.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ConfigObjectResult, ProxySyncResult } from '@/server/api/contract';
import { queryKeys } from './queryKeys';
import { getJson } from './fetchers';

export const detailKeys = {
  config: (path: string) => [...queryKeys.all, 'config', path] as const,
  sync: (id: string) => [...queryKeys.proxy(id), 'sync'] as const,
};

export const fetchConfigObject = (path: string, signal?: AbortSignal) =>
  getJson<ConfigObjectResult>(`/api/config?path=${encodeURIComponent(path)}`, signal);
export const fetchProxySync = (id: string, signal?: AbortSignal) =>
  getJson<ProxySyncResult>(`/api/proxies/${encodeURIComponent(id)}/sync`, signal);

export function useConfigObject(path: string | undefined) {
  return useQuery({
    queryKey: detailKeys.config(path ?? ''),
    queryFn: ({ signal }) => fetchConfigObject(path ?? '', signal),
    enabled: !!path,
    retry: false,
    staleTime: 0,
  });
}

/** Marks every fetched config object stale (after a live change, the source rule may have changed too). */
export function useInvalidateConfigObjects(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: [...queryKeys.all, 'config'] }), [client]);
}

export function useProxySync(id: string | null) {
  // Fresh on every mount (opening the tab); refetched with the proxy on mesh events; no polling.
  return useQuery({
    queryKey: detailKeys.sync(id ?? ''),
    queryFn: ({ signal }) => fetchProxySync(id ?? '', signal),
    enabled: !!id,
    staleTime: 0,
  });
}
