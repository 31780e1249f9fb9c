'use client';
import { useQuery } from '@tanstack/react-query';
import { fetchProxy } from './fetchers';
import { queryKeys } from './queryKeys';

/** One proxy's tables and config dump; refetched when a mesh event names it. */
export function useProxy(id: string) {
  return useQuery({ queryKey: queryKeys.proxy(id), queryFn: ({ signal }) => fetchProxy(id, signal) });
}
