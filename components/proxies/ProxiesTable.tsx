// The proxies table: keyboard-navigable (↑/↓ move between rows, Enter opens, Home/End jump).
import Link from 'next/link';
import type { KeyboardEvent } from 'react';
import { Labels } from '@/components/common/Labels';
import { proxyHref } from '@/components/graph/elements';
import { SYNC_TYPES, type ProxyRow } from './rows';

function SyncCell({ row }: { row: ProxyRow }) {
  if (!row.connected || !row.sync) return <span className="muted" title="no Envoy or gRPC client with this id is connected to meshscope's ADS server; its config is computed only">not connected</span>;
  const sync = row.sync;
  return (
    <span className="sync-states">
      {SYNC_TYPES.map(({ type, short }) => {
        const s = sync[type];
        return (
          <span key={type} className={`sync sync-${s.state.replace(' ', '-')}`} data-sync-type={short} title={s.nack ?? `${short}: ${s.state}`}>
            {short} {s.state}
          </span>
        );
      })}
    </span>
  );
}

const KIND_TITLE = { sidecar: 'sidecar Envoy', gateway: 'gateway (Envoy running `proxy router`)', proxyless: 'proxyless gRPC client (xDS in the application)' } as const;

export function ProxiesTable({ rows, changed, onOpen }: { rows: readonly ProxyRow[]; changed: ReadonlySet<string>; onOpen: (href: string) => void }) {
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
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown}>
        {rows.map((r) => (
          <tr key={r.id} data-proxy-id={r.id} tabIndex={0} className={changed.has(r.id) ? 'changed' : undefined} aria-label={`proxy ${r.id}`}>
            <td className="mono">
              {r.computed ? <Link href={proxyHref(r.id)}>{r.id}</Link> : <span title="connected, but no input defines this proxy">{r.id}</span>}
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
            <td className="num">{r.counts?.listeners ?? '—'}</td>
            <td className="num">{r.counts?.routes ?? '—'}</td>
            <td className="num">{r.counts?.clusters ?? '—'}</td>
            <td className="num">{r.counts?.endpoints ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
