// The proxies table: keyboard-navigable (↑/↓ move between rows, Enter opens, Home/End jump).
import Link from 'next/link';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Labels } from '@/components/common/Labels';
import { proxyHref } from '@/components/graph/elements';
import { driftState, useDrift } from '@/components/data/liveData';
import { SYNC_TYPES, type ProxyRow } from './rows';

/**
 * Drift against the pod's own Envoy (GET …/drift?bodies=0), fetched only once the row is in view and never
 * blocking the table: in sync / N differences / rejected / not fetched (with the reason as a tooltip).
 */
function DriftCell({ id, version, enabled }: { id: string; version: number; enabled: boolean }) {
  const q = useDrift(id, version, { enabled, summary: true });
  const s = driftState(q.data, q.error, enabled && q.isFetching);
  const [text, cls, title] =
    s.kind === 'in-sync'
      ? ['in sync', 'ok', "meshscope's config and the Envoy's agree"]
      : s.kind === 'differs'
        ? [`${s.count} difference${s.count === 1 ? '' : 's'}`, 'warn', 'open the proxy’s Drift tab']
        : s.kind === 'rejected'
          ? ['rejected', 'error', `${s.count} resource(s) rejected by the Envoy (NACK)`]
          : s.kind === 'pending'
            ? ['…', 'muted', 'reading the pod’s Envoy config']
            : ['not fetched', 'muted', s.reason];
  return (
    <td data-testid="drift-cell" data-drift={s.kind}>
      <span className={cls === 'muted' ? 'muted small' : `badge ${cls}`} title={title}>
        {text}
      </span>
    </td>
  );
}

function SyncCell({ row }: { row: ProxyRow }) {
  if ((!row.connected && !row.syncFrom) || !row.sync)
    return (
      <span
        className="muted"
        title="no Envoy or gRPC client with this id is connected to meshscope's ADS server; its config is computed only"
      >
        not connected
      </span>
    );
  const sync = row.sync;
  return (
    <span className="sync-states">
      {row.syncFrom ? (
        <span
          className="badge"
          data-testid="sync-source"
          title={`istiod's sync state as its /debug/syncz recorded it in the archive${row.syncFrom.istiod ? ` (${row.syncFrom.istiod})` : ''}, like istioctl proxy-status`}
        >
          {row.syncFrom.source}
          {row.syncFrom.istiod ? ` · ${row.syncFrom.istiod}` : ''}
        </span>
      ) : null}
      {SYNC_TYPES.map(({ type, short }) => {
        const s = sync[type];
        return (
          <span
            key={type}
            className={`sync sync-${s.state.replace(' ', '-')}`}
            data-sync-type={short}
            title={s.nack ?? `${short}: ${s.state}`}
          >
            {short} {s.state}
          </span>
        );
      })}
    </span>
  );
}

const KIND_TITLE = {
  sidecar: 'sidecar Envoy',
  gateway: 'gateway (Envoy running `proxy router`)',
  waypoint: 'ambient waypoint (Envoy running `proxy waypoint`)',
  proxyless: 'proxyless gRPC client (xDS in the application)',
} as const;

/** A count cell: the number, `…` while a computed proxy's counts are being fetched, `—` when there are none. */
function CountCell({ row, value }: { row: ProxyRow; value: number | undefined }) {
  if (value !== undefined) return <td className="num">{value}</td>;
  if (!row.computed) return <td className="num">—</td>;
  return (
    <td
      className="num muted"
      data-testid="count-pending"
      title="counted when the row is shown (large meshes are not translated all at once)"
    >
      …
    </td>
  );
}

/**
 * Reports the ids of the rows currently in the viewport (IntersectionObserver), so counts can be fetched
 * for what the user sees. Calls `onVisible` with ids in table order, debounced.
 */
function useVisibleRows(
  body: React.RefObject<HTMLTableSectionElement | null>,
  rows: readonly ProxyRow[],
  onVisible?: (ids: string[]) => void,
): void {
  useEffect(() => {
    const el = body.current;
    if (!onVisible || !el || typeof IntersectionObserver === 'undefined') return;
    const inView = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = () => {
      timer = undefined;
      onVisible(rows.map((r) => r.id).filter((id) => inView.has(id)));
    };
    const io = new IntersectionObserver((entries) => {
      for (const en of entries) {
        const id = (en.target as HTMLElement).dataset.proxyId;
        if (!id) continue;
        if (en.isIntersecting) inView.add(id);
        else inView.delete(id);
      }
      if (!timer) timer = setTimeout(report, 150);
    });
    for (const tr of el.querySelectorAll('tr[data-proxy-id]')) io.observe(tr);
    return () => {
      io.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [body, rows, onVisible]);
}

export function ProxiesTable({
  rows,
  changed,
  onOpen,
  onVisible,
  version,
  driftIds,
}: {
  rows: readonly ProxyRow[];
  /** The snapshot version (a new one compares drift again). */
  version: number;
  /** Rows whose drift is fetched (those in view). */
  driftIds: ReadonlySet<string>;
  changed: ReadonlySet<string>;
  onOpen: (href: string) => void;
  /** Called with the ids of the rows in view (for lazy counts). */
  onVisible?: (ids: string[]) => void;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  useVisibleRows(body, rows, onVisible);
  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const tr = (e.target as HTMLElement).closest('tr');
    if (!tr) return;
    const move = (to: Element | null | undefined) => {
      if (to instanceof HTMLElement) {
        e.preventDefault();
        to.focus();
      }
    };
    if (e.key === 'ArrowDown' || e.key === 'j') move(tr.nextElementSibling);
    else if (e.key === 'ArrowUp' || e.key === 'k') move(tr.previousElementSibling);
    else if (e.key === 'Home') move(tr.parentElement?.firstElementChild);
    else if (e.key === 'End') move(tr.parentElement?.lastElementChild);
    else if (e.key === 'Enter' && e.target === tr) {
      const id = tr.getAttribute('data-proxy-id');
      if (id) onOpen(proxyHref(id));
    }
  };
  return (
    <table className="table" data-testid="proxies-table" aria-rowcount={rows.length}>
      <thead>
        <tr>
          <th>id</th>
          <th>type</th>
          <th>namespace</th>
          <th>labels</th>
          <th>xDS connection / sync (CDS LDS RDS EDS)</th>
          <th className="num">listeners</th>
          <th className="num">routes</th>
          <th className="num">clusters</th>
          <th className="num">endpoints</th>
          <th title="meshscope's config against the pod's own Envoy (serve --live-config)">drift</th>
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown} ref={body}>
        {rows.map((r) => (
          <tr
            key={r.id}
            data-proxy-id={r.id}
            tabIndex={0}
            className={changed.has(r.id) ? 'changed' : undefined}
            aria-label={`proxy ${r.id}`}
          >
            <td className="mono">
              {r.computed ? (
                <Link href={proxyHref(r.id)}>{r.id}</Link>
              ) : (
                <span
                  title={
                    r.connected
                      ? 'connected, but no input defines this proxy'
                      : "in the archive's istiod syncz, but no input defines this proxy"
                  }
                >
                  {r.id}
                </span>
              )}
              {r.errors > 0 ? (
                <span className="badge warn" title="translation problems">
                  {r.errors}
                </span>
              ) : null}
            </td>
            <td>
              <span className={`badge ${r.kind === 'gateway' ? 'router' : r.kind}`} title={KIND_TITLE[r.kind]}>
                {r.kind}
              </span>
            </td>
            <td>{r.namespace}</td>
            <td>
              <Labels labels={r.labels} />
            </td>
            <td data-testid="sync-cell">
              {r.connected ? <span className="badge">connected</span> : null}
              <SyncCell row={r} />
            </td>
            <CountCell row={r} value={r.counts?.listeners} />
            <CountCell row={r} value={r.counts?.routes} />
            <CountCell row={r} value={r.counts?.clusters} />
            <CountCell row={r} value={r.counts?.endpoints} />
            <DriftCell id={r.id} version={version} enabled={r.computed && driftIds.has(r.id)} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
