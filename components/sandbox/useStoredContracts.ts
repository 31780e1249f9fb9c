'use client';
// Routing contracts saved from the sandbox, kept in the browser (localStorage) across visits.
import { useCallback, useEffect, useState } from 'react';
import type { RoutingContract } from '@/server/sandbox/types';
import { readStoredContracts, STORAGE_KEY } from './model/contracts';

export function useStoredContracts(): [RoutingContract[], (next: RoutingContract[]) => void] {
  const [contracts, setContracts] = useState<RoutingContract[]>([]);
  useEffect(() => {
    setContracts(readStoredContracts(window.localStorage.getItem(STORAGE_KEY)));
  }, []);
  const save = useCallback((next: RoutingContract[]) => {
    setContracts(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      /* storage full or disabled: kept for this page only */
    }
  }, []);
  return [contracts, save];
}
