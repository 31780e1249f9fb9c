'use client';
// /proxies: every proxy (computed from the inputs and/or connected over ADS), filterable by text,
// namespace and type, with the filter in the URL (?q=&ns=&type=).
import { useRouter } from 'next/navigation';
import { useUrlState } from '@/components/common/useUrlState';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ErrorsResponse, ProxiesResponse, SyncStatus } from '@/server/api/contract';
import { useSyncz } from '@/components/data/useMeshGraph';
import { useInputErrors, useProxies } from '@/components/data/useProxies';
import { useProxyCounts } from '@/components/data/useProxyCounts';
import { useRecentlyChanged } from '@/components/layout/LiveContext';
import { SourceBanner } from '@/components/layout/SourceBanner';
import { ProxiesTable } from './ProxiesTable';
import { filterRows, parseProxyFilter, proxyFilterToParams, proxyRows, type ProxyFilter } from './rows';

export function ProxiesView({
  initialProxies,
  initialErrors,
  initialSyncz,
}: {
  initialProxies: ProxiesResponse;
  initialErrors: ErrorsResponse;
  initialSyncz: SyncStatus[];
}) {
  const proxies = useProxies(initialProxies).data ?? initialProxies;
  const errors = useInputErrors(initialErrors).data ?? initialErrors;
  const syncq = useSyncz(initialSyncz);
  const syncz = syncq.data ?? initialSyncz;
  const { params, write } = useUrlState();
  const router = useRouter();
  const urlFilter = useMemo(() => parseProxyFilter(params), [params]);
  // The text box updates at once; the URL follows (replace, no history entry per keystroke).
  const [q, setQ] = useState(urlFilter.q);
  useEffect(() => setQ(urlFilter.q), [urlFilter.q]);
  const filter: ProxyFilter = { ...urlFilter, q };
  const setFilter = (f: ProxyFilter) => write(proxyFilterToParams(f));
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && document.activeElement?.tagName !== 'INPUT') {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Large meshes: the list has counts only for proxies already translated; the rows in view ask for theirs
  // (a few per request). Before the table reports what is in view, the first rows shown stand in.
  const [inView, setInView] = useState<string[] | undefined>();
  const onVisible = useCallback(
    (ids: string[]) => setInView((prev) => (prev && prev.length === ids.length && prev.every((id, i) => id === ids[i]) ? prev : ids)),
    [],
  );
  const missing = useMemo(() => new Set(proxies.proxies.filter((p) => !p.counts).map((p) => p.id)), [proxies]);
  const baseRows = useMemo(() => proxyRows(proxies.proxies, syncz), [proxies, syncz]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter object is new every render; its fields are the inputs
  const shownBase = useMemo(() => filterRows(baseRows, filter), [baseRows, filter.q, filter.namespace, filter.kind]);
  const wanted = missing.size === 0 ? [] : (inView ?? shownBase.slice(0, 20).map((r) => r.id)).filter((id) => missing.has(id));
  const lazyCounts = useProxyCounts(proxies.version, wanted);
  const rows = useMemo(
    () => (lazyCounts.size === 0 ? baseRows : proxyRows(proxies.proxies, syncz, lazyCounts)),
    [baseRows, proxies, syncz, lazyCounts],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter object is new every render; its fields are the inputs
  const shown = useMemo(() => filterRows(rows, filter), [rows, filter.q, filter.namespace, filter.kind]);
  // Drift is read from the pods' Envoys (a port-forward each): only for the rows in view.
  const driftIds = useMemo(() => new Set(inView ?? shown.slice(0, 20).map((r) => r.id)), [inView, shown]);
  const namespaces = [...new Set(rows.map((r) => r.namespace))].sort();
  const changed = useRecentlyChanged();
  const connected = rows.filter((r) => r.connected).length;

  return (
    <>
      <h1>Proxies</h1>
      <SourceBanner sources={errors.sources} xds={errors.xds} errorCount={errors.errors.length} version={proxies.version} />
      <search className="toolbar">
        <input
          ref={search}
          type="search"
          placeholder="filter: id, label, IP (press /)"
          aria-label="filter proxies"
          data-testid="proxy-filter"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setFilter({ ...filter, q: e.target.value });
          }}
        />
        <select
          aria-label="namespace"
          data-testid="proxy-ns"
          value={filter.namespace}
          onChange={(e) => setFilter({ ...filter, namespace: e.target.value })}
        >
          <option value="">all namespaces</option>
          {namespaces.map((ns) => (
            <option key={ns} value={ns}>
              {ns}
            </option>
          ))}
        </select>
        <select
          aria-label="type"
          data-testid="proxy-type"
          value={filter.kind}
          onChange={(e) => setFilter({ ...filter, kind: e.target.value as ProxyFilter['kind'] })}
        >
          <option value="">all types</option>
          <option value="sidecar">sidecar</option>
          <option value="gateway">gateway</option>
          <option value="waypoint">waypoint</option>
          <option value="proxyless">proxyless</option>
        </select>
        <span className="muted" data-testid="proxy-count">
          {shown.length} of {rows.length} proxies · {connected} connected
        </span>
        <button type="button" className="chip" onClick={() => void syncq.refetch()} title="re-read /debug/syncz">
          refresh sync state
        </button>
      </search>
      {rows.length === 0 ? (
        <p className="empty">
          No proxies: the inputs define no pod with a sidecar or gateway, and no xDS client is connected. Pods count as proxies when they
          have an istio-proxy container or the sidecar.istio.io/status annotation.
        </p>
      ) : shown.length === 0 ? (
        <p className="empty" data-testid="proxies-none-match">
          No proxy matches this filter.{' '}
          <button type="button" className="linklike" onClick={() => setFilter({ q: '', namespace: '', kind: '' })}>
            Clear the filter
          </button>
        </p>
      ) : (
        <ProxiesTable
          rows={shown}
          changed={changed}
          onOpen={(href) => router.push(href)}
          onVisible={onVisible}
          version={proxies.version}
          driftIds={driftIds}
        />
      )}
    </>
  );
}
