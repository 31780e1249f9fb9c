'use client';
// Sync state of a connected proxy: per type the state, what was sent and acked, the last NACK (its text
// and rejected version) beside the last good one, and the events seen while this page is open.
import { useEffect, useRef, useState } from 'react';
import { useProxySync } from '@/components/data/proxyDetailData';
import type { ProxySyncResult } from '@/server/api/contract';
import { syncEvents, type SyncEvent } from './model/syncHistory';

const MAX_EVENTS = 200;

export function SyncTimeline({ proxyId }: { proxyId: string }) {
  const q = useProxySync(proxyId);
  const prev = useRef<ProxySyncResult | undefined>(undefined);
  const [events, setEvents] = useState<SyncEvent[]>([]);
  useEffect(() => {
    if (!q.data) return;
    const ev = syncEvents(prev.current, q.data, new Date().toISOString());
    prev.current = q.data;
    if (ev.length) setEvents((e) => [...ev.reverse(), ...e].slice(0, MAX_EVENTS));
  }, [q.data]);

  if (q.isPending) return <p className="muted">Loading sync state…</p>;
  if (q.error) return <p className="error-text">Could not load the sync state: {q.error.message}</p>;
  const d = q.data;
  return (
    <div className="sync-timeline" data-testid="sync-timeline">
      <div className="dump-actions">
        <button type="button" onClick={() => void q.refetch()} disabled={q.isFetching} data-testid="sync-refresh">
          {q.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
        <span className="muted small">Updates with each config push; ACKs that arrive later show on refresh.</span>
      </div>
      {!d.connected ? (
        <p className="muted" data-testid="sync-not-connected">
          No Envoy is connected as <code>{proxyId}</code>: this config is computed only. Point a proxy&apos;s bootstrap at meshscope&apos;s
          ADS port (node id <code>sidecar~IP~{proxyId}~…</code>) to see what it receives and whether it ACKs.
        </p>
      ) : null}
      {d.connections.map((c) => (
        <section key={c.connectionId} className="panel">
          <h3>
            Connection <span className="mono">{c.connectionId}</span> <span className="badge">{c.mode}</span>
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th>type</th>
                <th>state</th>
                <th>sent</th>
                <th>last good (acked)</th>
                <th>last NACK</th>
              </tr>
            </thead>
            <tbody>
              {c.types.map((t) => (
                <tr key={t.type}>
                  <td>{t.type}</td>
                  <td className={`st-${t.state.replace(' ', '-').toLowerCase()}`}>{t.state}</td>
                  <td className="mono small">{t.sentVersion ? `${t.sentVersion} · nonce ${t.sentNonce ?? ''}` : (t.sentNonce ?? '—')}</td>
                  <td className="mono small">
                    {t.ackedVersion ? `${t.ackedVersion} · nonce ${t.ackedNonce ?? ''}` : (t.ackedNonce ?? '—')}
                  </td>
                  <td className="small">
                    {t.nack ? (
                      <span className="error-text" data-testid="nack">
                        version <span className="mono">{t.nack.version}</span> rejected: {t.nack.message}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <h3>Timeline (since this page opened)</h3>
      {events.length === 0 ? (
        <p className="muted">No sync events yet. They appear when meshscope pushes and the proxy answers.</p>
      ) : (
        <ol className="timeline">
          {events.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: events at the same instant differ only by position
            <li key={`${e.at}-${i}`} className={`ev-${e.kind}`}>
              <time className="mono small">{e.at.slice(11, 19)}</time> <span className="mono small">{e.connection}</span>{' '}
              {e.type ? <b>{e.type}</b> : null} {e.text}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
