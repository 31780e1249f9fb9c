'use client';
// The Live tab: the pod's own Envoy config (GET /api/proxies/POD.NS/live: a port-forward to its admin port,
// or a bug-report archive) in the same four tables the other tabs show for meshscope's config. Fetched when
// the tab opens; a classified failure (403 RBAC, 404 pod, 502 admin, 504 timeout, 404 flag off) is shown
// with its stage, never retried on its own.
import { useMemo, useState } from 'react';
import { LiveFetchError, useLive } from '@/components/data/liveData';
import type { FilterSpec, ViewQuery } from '@/components/tables/tableModel';
import { type TableColumn, VirtualTable } from '@/components/tables/VirtualTable';
import { type DumpRows, rowsFromDump } from '@/server/envoy/dumpModel/rows';
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

const KINDS = ['listeners', 'routes', 'clusters', 'endpoints'] as const;
type Kind = (typeof KINDS)[number];
const EMPTY: ViewQuery = { search: '', filters: {} };

interface TableSpec<R> {
  label: string;
  columns: readonly TableColumn<R>[];
  filters: readonly FilterSpec<R>[];
  empty: string;
}
type RowOf<K extends Kind> = DumpRows[K][number];

/** One table per kind of the pod's own config: the proxy page's columns, live wording. */
const TABLES: { [K in Kind]: TableSpec<RowOf<K>> } = {
  listeners: { label: 'Envoy listeners', columns: listenerColumns, filters: listenerFilters, empty: "No listeners in the Envoy's config." },
  routes: { label: 'Envoy routes', columns: routeColumns, filters: routeFilters, empty: "No route configurations in the Envoy's config." },
  clusters: { label: 'Envoy clusters', columns: clusterColumns, filters: clusterFilters, empty: "No clusters in the Envoy's config." },
  endpoints: {
    label: 'Envoy endpoints',
    columns: endpointColumns,
    filters: endpointFilters,
    empty: "No endpoints in the Envoy's config (the dump was read without include_eds?).",
  },
};

function LiveTable<K extends Kind>(props: { kind: K; rows: DumpRows; table: { query: ViewQuery; onQueryChange: (v: ViewQuery) => void } }) {
  const spec = TABLES[props.kind] as TableSpec<RowOf<K>>;
  return (
    <VirtualTable<RowOf<K>>
      key={props.kind}
      testId={`live-${props.kind}-table`}
      label={spec.label}
      rows={props.rows[props.kind] as readonly RowOf<K>[]}
      columns={spec.columns}
      filters={spec.filters}
      rowKey={(r) => r.key}
      empty={spec.empty}
      {...props.table}
    />
  );
}

export function LiveError({ error }: { error: unknown }) {
  const e = error instanceof LiveFetchError ? error : undefined;
  return (
    <div className="panel error-text" data-testid="live-error" data-status={e?.status} data-stage={e?.stage}>
      <strong>{e ? `${e.status} (${e.stage})` : 'Failed'}:</strong> {(error as Error).message}
    </div>
  );
}

export function LiveTab({ proxyId }: { proxyId: string }) {
  const q = useLive(proxyId);
  const [kind, setKind] = useState<Kind>('clusters');
  const [queries, setQueries] = useState<Record<Kind, ViewQuery>>({ listeners: EMPTY, routes: EMPTY, clusters: EMPTY, endpoints: EMPTY });
  const rows = useMemo(() => (q.data ? rowsFromDump(q.data.configDump) : undefined), [q.data]);
  if (q.isPending)
    return (
      <p className="muted" role="status" data-testid="live-loading">
        Reading the pod&apos;s Envoy config…
      </p>
    );
  if (q.error || !q.data || !rows) return <LiveError error={q.error} />;
  const d = q.data;
  const table = { query: queries[kind], onQueryChange: (v: ViewQuery) => setQueries((s) => ({ ...s, [kind]: v })) };
  return (
    <div className="live-tab" data-testid="live-tab">
      <p className="small">
        Envoy&apos;s own config of <span className="mono">{d.proxy}</span>, read by <strong data-testid="live-source">{d.source}</strong> at{' '}
        <span className="mono">{d.fetchedAt}</span> ({d.bytes.toLocaleString()} bytes).{' '}
        <button type="button" className="link" onClick={() => void q.refetch()} disabled={q.isFetching}>
          {q.isFetching ? 'reading…' : 'read again'}
        </button>
      </p>
      {[...d.errors, ...rows.errors].length ? (
        <p className="error-text small" data-testid="live-dump-errors">
          {[...d.errors, ...rows.errors].slice(0, 5).join('; ')}
        </p>
      ) : null}
      <div className="tabs sub-tabs" role="tablist" aria-label="Envoy config">
        {KINDS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={kind === k}
            data-testid={`live-kind-${k}`}
            className={`tab${kind === k ? ' active' : ''}`}
            onClick={() => setKind(k)}
          >
            {k}
            <span className="count">{rows[k].length}</span>
          </button>
        ))}
      </div>
      <LiveTable kind={kind} rows={rows} table={table} />
    </div>
  );
}
