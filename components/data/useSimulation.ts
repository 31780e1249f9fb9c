'use client';
// Where a request would go through one proxy's config (mesh proxy by id, or an uploaded dump).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { SimRequest } from '@/server/simulate/types';
import { dumpFingerprint, postSimulate, simulateKeys } from './simulate';

export function useSimulation(target: { proxyId: string | null; dump: unknown }, request: SimRequest | undefined) {
  const { proxyId, dump } = target;
  const fingerprint = useMemo(() => (proxyId ? '' : dumpFingerprint(dump)), [proxyId, dump]);
  const key = request
    ? proxyId
      ? simulateKeys.proxy(proxyId, request)
      : simulateKeys.dump(fingerprint, request)
    : ['meshscope', 'simulate', 'idle'];
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      postSimulate(proxyId ? { proxyId, request: request as SimRequest } : { dump, request: request as SimRequest }, signal),
    enabled: request !== undefined,
    retry: false,
    staleTime: proxyId ? 0 : Infinity,
  });
}
