'use client';
// The one URL-state hook: the page's search params as local state, written back with
// history.replaceState (or pushState for a navigation step such as a tab switch); Next keeps
// useSearchParams in sync with both, so views are deep links without a server round trip or a
// navigation per keystroke. `navSeq` counts navigations (pushes, back/forward) so views that keep their
// own input state can re-read the URL then and only then.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';

export interface UrlState {
  params: URLSearchParams;
  /** Replace the query (push: add a history entry). The path and hash are kept. */
  write: (next: URLSearchParams, push?: boolean) => void;
  navSeq: number;
}

export function useUrlState(): UrlState {
  const sp = useSearchParams();
  const text = sp?.toString() ?? '';
  const [params, setParams] = useState(() => new URLSearchParams(text));
  const [navSeq, setNavSeq] = useState(0);
  useEffect(() => setParams((p) => (p.toString() === text ? p : new URLSearchParams(text))), [text]);
  useEffect(() => {
    // Back/forward: the URL is the state.
    const onPop = () => {
      setParams(new URLSearchParams(window.location.search));
      setNavSeq((n) => n + 1);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const write = useCallback((next: URLSearchParams, push = false) => {
    setParams(next);
    if (push) setNavSeq((n) => n + 1);
    if (typeof window === 'undefined') return;
    const qs = next.toString();
    const url = `${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`;
    if (push) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }, []);
  return { params, write, navSeq };
}
