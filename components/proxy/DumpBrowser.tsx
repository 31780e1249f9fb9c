'use client';
// Browse one ConfigDump (a mesh proxy's, or an uploaded Envoy one) as tabs: listeners, route configs,
// clusters, endpoints (virtualised tables with istioctl-style filters), route graph and trace (C's
// components), raw JSON and — for connected mesh proxies — the sync timeline. Tab, search, sort,
// filters and the selected row live in the URL. With `live`, rows that changed since the previous
// dump flash briefly.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useInvalidateConfigObjects } from '@/components/data/proxyDetailData';
import { RouteGraphTab } from '@/components/routeGraph/RouteGraphTab';
import type { ViewQuery } from '@/components/tables/tableModel';
import { VirtualTable } from '@/components/tables/VirtualTable';
import { TraceTab } from '@/components/trace/TraceTab';
import {
  clusterColumns,
  clusterFilters,
  endpointColumns,
  endpointFilters,
  listenerColumns,
  listenerFilters,
  routeColumns,
  routeFilters,
} from './columns';
import { changedKeys, removedCount, signatures } from './model/changes';
import { rowsFromDump, type DumpRows } from '@/server/envoy/dumpModel/rows';
import { formatUrlState, parseUrlState, type Tab, type UrlState } from './model/urlState';
import { RawJsonTab } from './RawJsonTab';
import { ClusterPanel, RoutePanel } from './RowPanels';
import './proxy.css';

export interface DumpBrowserProps {
  /** `POD.NS` for a mesh proxy; null for an uploaded dump. */
  proxyId: string | null;
  dump: unknown;
  /** Flash rows that changed when `dump` changes (live updates). */
  live?: boolean;
  /** Extra tab content (the sync timeline for mesh proxies). */
  syncTab?: ReactNode;
  /** File name for the raw JSON download. */
  downloadName: string;
}

const HIGHLIGHT_MS = 4000;

function allSignatures(rows: DumpRows): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of [
    rows.listeners,
    rows.routes.map(({ raw: _r, ...r }) => r),
    rows.clusters.map(({ raw: _r, ...r }) => r),
    rows.endpoints,
  ])
    for (const [k, v] of signatures(part as { key: string }[])) m.set(k, v);
  return m;
}

export function DumpBrowser({ proxyId, dump, live, syncTab, downloadName }: DumpBrowserProps) {
  const params = useSearchParams();
  const [state, setState] = useState<UrlState>(() => parseUrlState(new URLSearchParams(params?.toString() ?? '')));
  const rows = useMemo(() => rowsFromDump(dump), [dump]);

  // Live highlight: keys new or different since the previous dump, for a few seconds.
  const prev = useRef<Map<string, string> | undefined>(undefined);
  const [changed, setChanged] = useState<{ keys: Set<string>; removed: number; at: number }>();
  const invalidateSources = useInvalidateConfigObjects();
  useEffect(() => {
    if (!live) return;
    const sigs = allSignatures(rows);
    const keys = changedKeys(prev.current, sigs);
    const removed = removedCount(prev.current, sigs);
    prev.current = sigs;
    if (keys.size === 0 && removed === 0) return;
    invalidateSources();
    setChanged({ keys, removed, at: Date.now() });
    const t = setTimeout(() => setChanged(undefined), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [rows, live, invalidateSources]);

  // Bumped on navigation (tab switch, back/forward) so the tables re-read their query from the URL;
  // typing in a table's own inputs does not remount it.
  const [navSeq, setNavSeq] = useState(0);
  const write = useCallback((next: UrlState, push = false) => {
    setState(next);
    if (push) setNavSeq((n) => n + 1);
    if (typeof window === 'undefined') return;
    const qs = formatUrlState(next);
    const url = `${window.location.pathname}?${qs}`;
    if (push) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }, []);

  // Back/forward between tabs.
  useEffect(() => {
    const onPop = () => {
      setState(parseUrlState(new URLSearchParams(window.location.search)));
      setNavSeq((n) => n + 1);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const tabs: { id: Tab; label: string; count?: number; changed?: boolean }[] = [
    { id: 'listeners', label: 'Listeners', count: rows.listeners.length },
    { id: 'routes', label: 'Routes', count: rows.routes.length },
    { id: 'clusters', label: 'Clusters', count: rows.clusters.length },
    { id: 'endpoints', label: 'Endpoints', count: rows.endpoints.length },
    { id: 'graph', label: 'Route graph' },
    { id: 'trace', label: 'Trace a request' },
    { id: 'raw', label: 'Raw JSON' },
    ...(syncTab ? [{ id: 'sync' as const, label: 'Sync' }] : []),
  ];
  if (changed) {
    for (const t of tabs) {
      const list =
        t.id === 'listeners'
          ? rows.listeners
          : t.id === 'routes'
            ? rows.routes
            : t.id === 'clusters'
              ? rows.clusters
              : t.id === 'endpoints'
                ? rows.endpoints
                : [];
      t.changed = list.some((r) => changed.keys.has(r.key));
    }
  }

  const setQuery = (query: ViewQuery) => {
    const cur = parseUrlState(new URLSearchParams(window.location.search), state.tab);
    write({ ...state, ...(cur.selected ? { selected: cur.selected } : {}), query });
  };
  const select = (key: string | undefined) => {
    const cur = parseUrlState(new URLSearchParams(window.location.search), state.tab);
    const { selected: _s, ...rest } = cur;
    write(key ? { ...rest, selected: key } : rest);
  };
  const tableProps = {
    query: state.query,
    onQueryChange: setQuery,
    selectedKey: state.selected,
    ...(changed ? { highlighted: changed.keys } : {}),
  };
  const tableKey = `${state.tab}|${navSeq}`;

  const selectedRoute = state.tab === 'routes' && state.selected ? rows.routes.find((r) => r.key === state.selected) : undefined;
  const selectedCluster = state.tab === 'clusters' && state.selected ? rows.clusters.find((r) => r.key === state.selected) : undefined;

  return (
    <div className="dump-browser">
      {rows.errors.length ? (
        <div className="panel error-text" data-testid="dump-errors">
          Parts of this config dump could not be read: {rows.errors.slice(0, 5).join('; ')}
          {rows.errors.length > 5 ? ` (and ${rows.errors.length - 5} more)` : ''}
        </div>
      ) : null}
      {changed ? (
        <p className="change-banner" role="status" data-testid="change-banner">
          Updated: {changed.keys.size} row{changed.keys.size === 1 ? '' : 's'} changed or added
          {changed.removed ? `, ${changed.removed} removed` : ''}.
        </p>
      ) : null}
      <div
        className="tabs"
        role="tablist"
        aria-label="Proxy config"
        onKeyDown={(e) => {
          // WAI-ARIA tabs: arrow keys move between tabs.
          const i = tabs.findIndex((t) => t.id === state.tab);
          const next =
            e.key === 'ArrowRight'
              ? tabs[(i + 1) % tabs.length]
              : e.key === 'ArrowLeft'
                ? tabs[(i - 1 + tabs.length) % tabs.length]
                : undefined;
          if (!next) return;
          e.preventDefault();
          write({ tab: next.id, query: { search: '', filters: {} } }, true);
          document.getElementById(`tab-${next.id}`)?.focus();
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={state.tab === t.id}
            tabIndex={state.tab === t.id ? 0 : -1}
            aria-controls={`panel-${t.id}`}
            data-testid={`tab-${t.id}`}
            className={`tab${state.tab === t.id ? ' active' : ''}${t.changed ? ' changed' : ''}`}
            onClick={() => write({ tab: t.id, query: { search: '', filters: {} } }, true)}
          >
            {t.label}
            {t.count !== undefined ? <span className="count">{t.count}</span> : null}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${state.tab}`}
        aria-labelledby={`tab-${state.tab}`}
        className="tabpanel"
        data-testid={`panel-${state.tab}`}
      >
        {state.tab === 'listeners' ? (
          <VirtualTable
            key={tableKey}
            testId="listeners-table"
            label="Listeners"
            rows={rows.listeners}
            columns={listenerColumns}
            filters={listenerFilters}
            rowKey={(r) => r.key}
            onSelect={(r) => (r.rds ? write({ tab: 'routes', query: { search: '', filters: { name: r.rds } } }, true) : select(r.key))}
            empty="No listeners in this config. Sidecars get listeners once a Service selects their pod."
            {...tableProps}
          />
        ) : null}
        {state.tab === 'routes' ? (
          <>
            <VirtualTable
              key={tableKey}
              testId="routes-table"
              label="Routes"
              rows={rows.routes}
              columns={routeColumns}
              filters={routeFilters}
              rowKey={(r) => r.key}
              onSelect={(r) => select(r.key)}
              empty="No route configurations. HTTP ports get one (named by port) per listener."
              {...tableProps}
            />
            {selectedRoute ? <RoutePanel row={selectedRoute} proxyId={proxyId} onClose={() => select(undefined)} /> : null}
          </>
        ) : null}
        {state.tab === 'clusters' ? (
          <>
            <VirtualTable
              key={tableKey}
              testId="clusters-table"
              label="Clusters"
              rows={rows.clusters}
              columns={clusterColumns}
              filters={clusterFilters}
              rowKey={(r) => r.key}
              onSelect={(r) => select(r.key)}
              empty="No clusters in this config."
              {...tableProps}
            />
            {selectedCluster ? <ClusterPanel row={selectedCluster} proxyId={proxyId} onClose={() => select(undefined)} /> : null}
          </>
        ) : null}
        {state.tab === 'endpoints' ? (
          <VirtualTable
            key={tableKey}
            testId="endpoints-table"
            label="Endpoints"
            rows={rows.endpoints}
            columns={endpointColumns}
            filters={endpointFilters}
            rowKey={(r) => r.key}
            onSelect={(r) => select(r.key)}
            empty="No endpoints. EDS clusters get endpoints from the pods their Service selects."
            {...tableProps}
          />
        ) : null}
        {state.tab === 'graph' ? <RouteGraphTab proxyId={proxyId} dump={dump} /> : null}
        {state.tab === 'trace' ? <TraceTab proxyId={proxyId} dump={dump} /> : null}
        {state.tab === 'raw' ? <RawJsonTab dump={dump} downloadName={downloadName} proxyId={proxyId} /> : null}
        {state.tab === 'sync' ? syncTab : null}
      </div>
    </div>
  );
}
