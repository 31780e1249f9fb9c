'use client';
// Browse one ConfigDump (a mesh proxy's, or an uploaded Envoy one) as tabs: listeners, route configs,
// clusters, endpoints (virtualised tables with istioctl-style filters), route graph and trace (C's
// components), raw JSON and — for connected mesh proxies — the sync timeline. Tab, search, sort,
// filters and the selected row live in the URL (useUrlState). The tabs are model/tabs.ts's table; each
// one's panel is PANELS[id] below. With `live`, rows that changed since the previous dump flash briefly.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useUrlState } from '@/components/common/useUrlState';
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
import { type PatchMarks, patchMarks } from '@/components/envoyfilter/patchMarks';
import { patchedClusterColumns, patchedListenerColumns, patchedRouteColumns } from '@/components/envoyfilter/patchColumns';
import type { EnvoyFilterPatchReport } from '@/server/api/contract';
import { rowsFromDump, type DumpRows } from '@/server/envoy/dumpModel/rows';
import { TAB_DEFS, type Tab, type TabDef } from './model/tabs';
import { formatUrlState, parseUrlState, type UrlState } from './model/urlState';
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
  /** The Security tab (mesh proxies). */
  securityTab?: ReactNode;
  /** The EnvoyFilter tab (mesh proxies): per patch, applied or not, where, why not. */
  envoyFilterTab?: ReactNode;
  /** The EnvoyFilter stage's report: patched resources are marked in the tables and the route graph. */
  envoyFilters?: readonly EnvoyFilterPatchReport[];
  /** The Live and Drift tabs (mesh proxies): the pod's own Envoy config and its drift from this one. */
  liveTab?: ReactNode;
  driftTab?: ReactNode;
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

/** What a tab panel is drawn from. */
interface PanelCtx {
  props: DumpBrowserProps;
  rows: DumpRows;
  state: UrlState;
  /** Open a tab (a navigation: history entry), optionally with filters. */
  open: (tab: Tab, filters?: Record<string, string>) => void;
  select: (key: string | undefined) => void;
  tableProps: {
    query: ViewQuery;
    onQueryChange: (q: ViewQuery) => void;
    selectedKey: string | undefined;
    highlighted?: Set<string>;
  };
  tableKey: string;
  /** Resources an EnvoyFilter patch changed (empty maps for uploaded dumps). */
  marks: PatchMarks;
  /** The table columns, with an EnvoyFilter column where a patch marked rows. */
  columns: {
    listeners: typeof listenerColumns;
    routes: typeof routeColumns;
    clusters: typeof clusterColumns;
  };
}

/** Each tab's panel, by tab id (the type makes it exhaustive over model/tabs.ts). */
const PANELS: Record<Tab, (c: PanelCtx) => ReactNode> = {
  listeners: (c) => (
    <VirtualTable
      key={c.tableKey}
      testId="listeners-table"
      label="Listeners"
      rows={c.rows.listeners}
      columns={c.columns.listeners}
      filters={listenerFilters}
      rowKey={(r) => r.key}
      onSelect={(r) => (r.rds ? c.open('routes', { name: r.rds }) : c.select(r.key))}
      empty="No listeners in this config. Sidecars get listeners once a Service selects their pod."
      {...c.tableProps}
    />
  ),
  routes: (c) => {
    const selected = c.state.selected ? c.rows.routes.find((r) => r.key === c.state.selected) : undefined;
    return (
      <>
        <VirtualTable
          key={c.tableKey}
          testId="routes-table"
          label="Routes"
          rows={c.rows.routes}
          columns={c.columns.routes}
          filters={routeFilters}
          rowKey={(r) => r.key}
          onSelect={(r) => c.select(r.key)}
          empty="No route configurations. HTTP ports get one (named by port) per listener."
          {...c.tableProps}
        />
        {selected ? <RoutePanel row={selected} proxyId={c.props.proxyId} onClose={() => c.select(undefined)} /> : null}
      </>
    );
  },
  clusters: (c) => {
    const selected = c.state.selected ? c.rows.clusters.find((r) => r.key === c.state.selected) : undefined;
    return (
      <>
        <VirtualTable
          key={c.tableKey}
          testId="clusters-table"
          label="Clusters"
          rows={c.rows.clusters}
          columns={c.columns.clusters}
          filters={clusterFilters}
          rowKey={(r) => r.key}
          onSelect={(r) => c.select(r.key)}
          empty="No clusters in this config."
          {...c.tableProps}
        />
        {selected ? <ClusterPanel row={selected} proxyId={c.props.proxyId} onClose={() => c.select(undefined)} /> : null}
      </>
    );
  },
  endpoints: (c) => (
    <VirtualTable
      key={c.tableKey}
      testId="endpoints-table"
      label="Endpoints"
      rows={c.rows.endpoints}
      columns={endpointColumns}
      filters={endpointFilters}
      rowKey={(r) => r.key}
      onSelect={(r) => c.select(r.key)}
      empty="No endpoints. EDS clusters get endpoints from the pods their Service selects."
      {...c.tableProps}
    />
  ),
  graph: (c) => <RouteGraphTab proxyId={c.props.proxyId} dump={c.props.dump} {...(c.marks.count ? { marks: c.marks } : {})} />,
  trace: (c) => <TraceTab proxyId={c.props.proxyId} dump={c.props.dump} />,
  raw: (c) => <RawJsonTab dump={c.props.dump} downloadName={c.props.downloadName} proxyId={c.props.proxyId} />,
  sync: (c) => c.props.syncTab,
  security: (c) => c.props.securityTab,
  envoyfilters: (c) => c.props.envoyFilterTab,
  live: (c) => c.props.liveTab,
  drift: (c) => c.props.driftTab,
};

export function DumpBrowser(props: DumpBrowserProps) {
  const { dump, live, syncTab, securityTab, envoyFilterTab, liveTab } = props;
  const url = useUrlState();
  const state = useMemo(() => parseUrlState(url.params), [url.params]);
  const rows = useMemo(() => rowsFromDump(dump), [dump]);
  const marks = useMemo(() => patchMarks(props.envoyFilters), [props.envoyFilters]);
  const columns = useMemo(
    () => ({
      listeners: patchedListenerColumns(listenerColumns, marks),
      routes: patchedRouteColumns(routeColumns, marks),
      clusters: patchedClusterColumns(clusterColumns, marks),
    }),
    [marks],
  );

  // Live highlight: keys new or different since the previous dump, for a few seconds. The first dump's
  // signatures are computed only when a second one arrives (tens of ms for 10,000 rows, kept off the
  // page's first load); after that each dump's signatures serve as the next one's "before".
  const prev = useRef<{ rows: DumpRows; sigs?: Map<string, string> } | undefined>(undefined);
  const [changed, setChanged] = useState<{ keys: Set<string>; removed: number; at: number }>();
  const invalidateSources = useInvalidateConfigObjects();
  useEffect(() => {
    if (!live) return;
    const before = prev.current;
    if (!before) {
      prev.current = { rows };
      return;
    }
    if (before.rows === rows) return;
    const was = before.sigs ?? allSignatures(before.rows);
    const sigs = allSignatures(rows);
    const keys = changedKeys(was, sigs);
    const removed = removedCount(was, sigs);
    prev.current = { rows, sigs };
    if (keys.size === 0 && removed === 0) return;
    invalidateSources();
    setChanged({ keys, removed, at: Date.now() });
    const t = setTimeout(() => setChanged(undefined), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [rows, live, invalidateSources]);

  const { write: writeParams } = url;
  const write = useCallback((next: UrlState, push = false) => writeParams(new URLSearchParams(formatUrlState(next)), push), [writeParams]);
  const open = (tab: Tab, filters: Record<string, string> = {}) => write({ tab, query: { search: '', filters } }, true);

  const tabs = TAB_DEFS.filter(
    (t: TabDef) =>
      (!t.needsSync || syncTab) &&
      (!t.needsSecurity || securityTab) &&
      (!t.needsEnvoyFilters || envoyFilterTab) &&
      (!t.needsLive || liveTab),
  ).map((t: TabDef) => {
    const list = t.rows ? rows[t.rows] : undefined;
    return {
      id: t.id as Tab,
      label: t.label,
      count: list?.length,
      changed: !!changed && !!list?.some((r) => changed.keys.has(r.key)),
    };
  });

  // Tables keep their own input state: read the URL afresh for the selection they do not own.
  const current = () => parseUrlState(new URLSearchParams(window.location.search), state.tab);
  const setQuery = (query: ViewQuery) => {
    const cur = current();
    write({ ...state, ...(cur.selected ? { selected: cur.selected } : {}), query });
  };
  const select = (key: string | undefined) => {
    const { selected: _s, ...rest } = current();
    write(key ? { ...rest, selected: key } : rest);
  };
  const ctx: PanelCtx = {
    props,
    rows,
    state,
    open,
    select,
    tableProps: {
      query: state.query,
      onQueryChange: setQuery,
      selectedKey: state.selected,
      ...(changed ? { highlighted: changed.keys } : {}),
    },
    // Bumped on navigation (tab switch, back/forward) so the tables re-read their query from the URL;
    // typing in a table's own inputs does not remount it.
    tableKey: `${state.tab}|${url.navSeq}`,
    marks,
    columns,
  };

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
          open(next.id);
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
            onClick={() => open(t.id)}
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
        {PANELS[state.tab](ctx)}
      </div>
    </div>
  );
}
