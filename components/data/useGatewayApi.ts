'use client';
import { useQuery } from '@tanstack/react-query';
import type { GatewayApiResponse } from '@/server/api/contract';
import { getJson } from './fetchers';
import { meshKeys } from './meshKeys';

/** Gateway API status for the overview; seeded by the server render, refetched on mesh events. */
export function useGatewayApi(initialData?: GatewayApiResponse) {
  return useQuery({
    queryKey: meshKeys.gatewayApi(),
    queryFn: ({ signal }) => getJson<GatewayApiResponse>('/api/gateway-api', signal),
    ...(initialData ? { initialData } : {}),
  });
}
