'use client';
// Subscribes to /api/events (SSE) and invalidates the queries a change touches.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { MeshEvent } from '@/server/api/contract';
import { keysToInvalidate } from './invalidation';

export type LiveState = 'connecting' | 'live' | 'offline';

export function useMeshEvents(): { state: LiveState; last?: MeshEvent } {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const [last, setLast] = useState<MeshEvent>();
  useEffect(() => {
    const es = new EventSource('/api/events');
    es.addEventListener('hello', () => setState('live'));
    es.addEventListener('proxies', (m) => {
      const e = JSON.parse((m as MessageEvent<string>).data) as MeshEvent;
      setLast(e);
      for (const key of keysToInvalidate(e)) void client.invalidateQueries({ queryKey: key });
    });
    es.onerror = () => setState(es.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    return () => es.close();
  }, [client]);
  return last ? { state, last } : { state };
}
