'use client';
// Sandbox hooks: the draft's evaluation (debounced, cancelled when outdated, previous result kept while
// the next one runs), the live objects, and apply.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type EvaluateBody, fetchConfigByPath, fetchLiveConfigs, postApply, postDemoReset, postEvaluate, sandboxKeys } from './sandbox';
import { detailKeys } from './proxyDetailData';
import { queryKeys } from './queryKeys';

/** Typing pauses this long before the draft is evaluated (no evaluation per keystroke). */
export const EVALUATE_DEBOUNCE_MS = 400;

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * Evaluates `body` (undefined: nothing to evaluate, e.g. the YAML does not parse) after a pause in typing.
 * The query's AbortSignal goes to fetch: when the key moves on, react-query aborts the outdated request.
 */
export function useSandboxEvaluate(body: EvaluateBody | undefined) {
  const debounced = useDebounced(body, EVALUATE_DEBOUNCE_MS);
  const pending = JSON.stringify(body) !== JSON.stringify(debounced);
  const q = useQuery({
    queryKey: debounced ? sandboxKeys.evaluate(debounced) : [...queryKeys.all, 'sandbox', 'idle'],
    queryFn: ({ signal }) => postEvaluate(debounced as EvaluateBody, signal),
    enabled: debounced !== undefined && debounced.draft.trim() !== '',
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
  return { ...q, waiting: pending || q.isFetching };
}

export function useLiveConfigs() {
  return useQuery({ queryKey: sandboxKeys.liveConfigs(), queryFn: ({ signal }) => fetchLiveConfigs(signal), staleTime: 10_000 });
}

/** One live object by provenance path (`?load=`); shares its cache with the route source panel. */
export function useLiveObject(path: string | undefined) {
  return useQuery({
    queryKey: detailKeys.config(path ?? ''),
    queryFn: ({ signal }) => fetchConfigByPath(path ?? '', signal),
    enabled: !!path,
    retry: false,
  });
}

/** Apply (preview, then confirm) and demo reset; both refresh every query (the live mesh changed). */
export function useApply() {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: queryKeys.all });
  const apply = useMutation({
    mutationFn: (v: { draft: string; token: string; confirm: boolean }) => postApply(v.draft, v.token, v.confirm),
    onSuccess: (_r, v) => (v.confirm ? done() : undefined),
  });
  const reset = useMutation({ mutationFn: (v: { token: string }) => postDemoReset(v.token), onSuccess: done });
  return { apply, reset };
}
