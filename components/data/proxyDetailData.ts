'use client';
// Hooks for the proxy page's extra data: one Istio config object by provenance path (the "source
// rule" panel), the VirtualService rule behind a route (translation's provenance, carried in the proxy
// detail the page already holds) and a proxy's ADS sync state. Keys sit under queryKeys.proxy(id) / queryKeys.all, so
// the existing mesh-event invalidation (prefix match) refreshes them too.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ConfigObjectResult, ProxySyncResult, RouteProvenance, RouteRuleSource } from '@/server/api/contract';
import { fetchProxy, getJson } from './fetchers';
import { queryKeys } from './queryKeys';

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

/** Where a route sits in a proxy's RDS output: the key of translation's provenance. */
export interface RouteKey {
  routeConfig: string;
  virtualHost: string;
  index: number;
}

export const findRouteSource = (provenance: readonly RouteProvenance[] | undefined, k: RouteKey): RouteRuleSource | undefined =>
  provenance?.find((p) => p.routeConfig === k.routeConfig && p.virtualHost === k.virtualHost && p.index === k.index)?.source;

/**
 * The VirtualService rule that produced a route of a mesh proxy, as translation recorded it. Reads the proxy
 * detail the page already fetched (same query key; never refetched just for this); disabled without a proxy
 * (an uploaded dump carries no provenance).
 */
export function useRouteSource(proxyId: string | null, key: RouteKey | undefined) {
  return useQuery({
    queryKey: queryKeys.proxy(proxyId ?? ''),
    queryFn: ({ signal }) => fetchProxy(proxyId ?? '', signal),
    enabled: !!proxyId && !!key,
    staleTime: Number.POSITIVE_INFINITY,
    select: (d) => (key ? (findRouteSource(d.provenance, key) ?? null) : null),
  });
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
