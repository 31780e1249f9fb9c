'use client';
// The page's search params as local state, written back with history.replaceState (Next keeps
// useSearchParams in sync with it), so views are deep links without a navigation per keystroke.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';

export function useUrlParams(): [URLSearchParams, (next: URLSearchParams, push?: boolean) => void] {
  const sp = useSearchParams();
  const text = sp?.toString() ?? '';
  const [params, setParams] = useState(() => new URLSearchParams(text));
  useEffect(() => setParams(new URLSearchParams(text)), [text]);
  const write = useCallback((next: URLSearchParams, push = false) => {
    setParams(next);
    if (typeof window === 'undefined') return;
    const qs = next.toString();
    const url = `${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`;
    if (push) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }, []);
  return [params, write];
}
