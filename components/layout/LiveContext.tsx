'use client';
// One /api/events subscription per page, shared: the nav's live indicator and any view that highlights
// what just changed read it from here (useMeshEvents opens an EventSource per call, so call it once).
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { MeshEvent } from '@/server/api/contract';
import { useMeshEvents, type LiveState } from '@/components/data/useMeshEvents';

interface Live {
  state: LiveState;
  last?: MeshEvent;
}

const LiveContext = createContext<Live>({ state: 'connecting' });

export function LiveProvider({ children }: { children: ReactNode }) {
  const live = useMeshEvents();
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

export const useLive = (): Live => useContext(LiveContext);

/** Proxy ids named by the latest mesh event, for `ms` after it arrived (then empty again). */
export function useRecentlyChanged(ms = 4_000): ReadonlySet<string> {
  const { last } = useLive();
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (!last) return;
    setChanged(new Set(last.proxies));
    const t = setTimeout(() => setChanged(new Set()), ms);
    return () => clearTimeout(t);
  }, [last, ms]);
  return changed;
}
