'use client';
import { useQuery } from '@tanstack/react-query';
import type { EnvoyFilterReachResponse } from '@/server/api/contract';
import { getJson } from './fetchers';
import { queryKeys } from './queryKeys';

/** Under the proxies prefix: every mesh event's invalidation refetches it (meshKeys.ts explains the prefix). */
export const envoyFilterReachKey = () => [...queryKeys.proxies(), 'envoyfilters'] as const;

/** Every EnvoyFilter, applied somewhere or why not (GET /api/envoyfilters), for the overview. */
export function useEnvoyFilterReach(initialData?: EnvoyFilterReachResponse) {
  return useQuery({
    queryKey: envoyFilterReachKey(),
    queryFn: ({ signal }) => getJson<EnvoyFilterReachResponse>('/api/envoyfilters', signal),
    ...(initialData ? { initialData } : {}),
  });
}
