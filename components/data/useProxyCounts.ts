'use client';
// Counts of the proxies the table shows, fetched lazily a few at a time (large meshes: the list carries
// counts only for proxies already translated). Accumulates per snapshot version; a new version starts over.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ProxyCounts } from '@/server/api/contract';
import { fetchProxyCounts } from './fetchers';
import { queryKeys } from './queryKeys';

/** Ids per request: each may be a full translation on the server (seconds for a 10,000-cluster sidecar). */
export const COUNTS_BATCH = 5;

/** The next ids to ask for: wanted, not known yet, at most one batch, in the order shown. */
export function nextCountBatch(
  wanted: readonly string[],
  known: ReadonlyMap<string, ProxyCounts>,
  failed: ReadonlySet<string>,
  batch = COUNTS_BATCH,
): string[] {
  const out: string[] = [];
  for (const id of wanted) {
    if (out.length >= batch) break;
    if (!known.has(id) && !failed.has(id) && !out.includes(id)) out.push(id);
  }
  return out;
}

const NO_COUNTS: ReadonlyMap<string, ProxyCounts> = new Map();
const NO_IDS: ReadonlySet<string> = new Set();
const EMPTY_AT = (version: number) => ({ version, known: NO_COUNTS as Map<string, ProxyCounts>, failed: NO_IDS as Set<string> });

export function useProxyCounts(version: number, wanted: readonly string[]): ReadonlyMap<string, ProxyCounts> {
  const [state, setState] = useState<{ version: number; known: Map<string, ProxyCounts>; failed: Set<string> }>(() => ({
    version,
    known: new Map(),
    failed: new Set(),
  }));
  const current = state.version === version ? state : EMPTY_AT(version);
  const ids = nextCountBatch(wanted, current.known, current.failed);
  const q = useQuery({
    queryKey: queryKeys.proxyCounts(version, ids),
    queryFn: async ({ signal }) => ({ ids, data: await fetchProxyCounts(ids, signal) }),
    enabled: ids.length > 0,
    staleTime: Infinity,
    retry: 1,
  });
  useEffect(() => {
    if (!q.data) return;
    const { ids: asked, data } = q.data;
    setState((s) => {
      const base = s.version === version ? s : { version, known: new Map<string, ProxyCounts>(), failed: new Set<string>() };
      if (data.version !== version) return base; // answered for another snapshot: the list refetch brings the new version
      const known = new Map(base.known);
      const failed = new Set(base.failed);
      for (const id of asked) {
        const c = data.counts[id];
        if (c) known.set(id, c);
        else failed.add(id); // gone from the snapshot: do not ask again
      }
      return { version, known, failed };
    });
  }, [q.data, version]);
  return current.known;
}
