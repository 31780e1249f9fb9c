'use client';
import { useQuery } from '@tanstack/react-query';
import type { ErrorsResponse, ProxiesResponse } from '@/server/api/contract';
import { fetchErrors, fetchProxies } from './fetchers';
import { queryKeys } from './queryKeys';

/** Every proxy with counts; seeded with the server-rendered data, refetched on mesh events. */
export function useProxies(initialData?: ProxiesResponse) {
  return useQuery({
    queryKey: queryKeys.proxies(),
    queryFn: ({ signal }) => fetchProxies(signal),
    ...(initialData ? { initialData } : {}),
  });
}

export function useInputErrors(initialData?: ErrorsResponse) {
  return useQuery({ queryKey: queryKeys.errors(), queryFn: ({ signal }) => fetchErrors(signal), ...(initialData ? { initialData } : {}) });
}
