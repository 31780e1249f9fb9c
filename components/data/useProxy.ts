'use client';
import { useQuery } from '@tanstack/react-query';
import type { ProxyDetail } from '@/server/api/contract';
import { fetchProxy } from './fetchers';
import { queryKeys } from './queryKeys';

/** One proxy's tables and config dump; refetched when a mesh event names it. */
export function useProxy(id: string, initialData?: ProxyDetail) {
  return useQuery({
    queryKey: queryKeys.proxy(id),
    queryFn: ({ signal }) => fetchProxy(id, signal),
    ...(initialData ? { initialData } : {}),
  });
}
