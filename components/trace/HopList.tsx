'use client';
// The traced request, hop by hop: what was chosen at each step, the candidates passed over and why,
// the weighted clusters with their probabilities, the endpoints, and where and why the walk stopped.
import type { Rejection } from '@/server/simulate/types';
import type { TraceView } from './model/hops';

export interface HopListProps {
  view: TraceView;
  /** Human-readable match of route #index in the traced virtual host (from the route graph). */
  routeLabel?: (index: number) => string | undefined;
  /** Select a node on the graph (route index / cluster name). */
  onRoute?: (index: number) => void;
}

function RejectedList({ rejected, routeLabel }: { rejected: Rejection[]; routeLabel?: HopListProps['routeLabel'] }) {
  if (rejected.length === 0) return null;
  const items = rejected.map((x, i) => {
    const label =
      x.hop === 'route' && x.index !== undefined
        ? `#${x.index}${x.name ? ` ${x.name}` : ''} ${routeLabel?.(x.index) ?? ''}`.trim()
        : x.name || `#${x.index ?? i}`;
    return (
      <li key={`${x.hop}-${x.index ?? i}-${x.name}`} data-testid="trace-rejected" data-hop={x.hop} data-index={x.index}>
        <span className="mono">{label}</span> — <span className="trace-reason">{x.reason}</span>
      </li>
    );
  });
  return (
    <details className="trace-rejected" open={rejected.length <= 6}>
      <summary>
        {rejected.length} rejected candidate{rejected.length === 1 ? '' : 's'}
      </summary>
      <ul>{items}</ul>
    </details>
  );
}

export function HopList({ view, routeLabel, onRoute }: HopListProps) {
  return (
    <div className="trace-result" data-testid="trace-result">
      <ol className="trace-hops" data-testid="trace-hops">
        {view.hops.map((h) => (
          <li
            key={h.hop}
            className={`trace-hop${(h.stopped || h.value === undefined || (h.hop === 'authorization' && h.value.startsWith('deny'))) && view.error ? ' stopped' : ''}`}
            data-testid={`hop-${h.hop}`}
          >
            <div className="trace-hop-head">
              <span className="trace-hop-title">{h.title}</span>{' '}
              {h.hop === 'route' && h.value !== undefined ? (
                <button type="button" className="link mono" onClick={() => onRoute?.(Number(/^#(\d+)/.exec(h.value ?? '')?.[1] ?? 0))}>
                  {h.value} {routeLabel?.(Number(/^#(\d+)/.exec(h.value)?.[1] ?? -1)) ?? ''}
                </button>
              ) : h.value !== undefined && h.hop !== 'cluster' && h.hop !== 'endpoints' ? (
                <span className="mono" data-testid={`hop-${h.hop}-value`}>
                  {h.value}
                </span>
              ) : null}
              {h.value === undefined && view.error ? <span className="error-text"> ✗ none</span> : null}
              {h.from ? (
                <span className="muted small" data-testid="hop-route-from">
                  {' '}
                  from {h.from}
                </span>
              ) : null}
            </div>
            {h.clusters ? (
              <ul className="trace-clusters" data-testid="trace-clusters">
                {h.clusters.map((c) => (
                  <li key={c.name} data-testid="trace-cluster" data-cluster={c.name}>
                    <span className="mono">{c.name}</span>
                    {c.subset ? (
                      <span className="badge" data-testid="trace-subset">
                        subset {c.subset}
                      </span>
                    ) : null}{' '}
                    <span className="weight">{h.clusters && h.clusters.length > 1 ? `${c.percent}% of requests` : '100%'}</span>
                    {h.clusters && h.clusters.length > 1 ? <span className="muted small"> (weight {c.weight})</span> : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {h.endpoints ? (
              h.endpoints.length ? (
                <ul className="trace-endpoints mono small" data-testid="trace-endpoints">
                  {h.endpoints.slice(0, 20).map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                  {h.endpoints.length > 20 ? <li className="muted">… {h.endpoints.length - 20} more</li> : null}
                </ul>
              ) : (
                <p className="muted small">No endpoints known for the cluster (see notes).</p>
              )
            ) : null}
            {h.detail?.map((d) => (
              <p key={d} className="muted small" data-testid="hop-detail">
                {d}
              </p>
            ))}
            <RejectedList rejected={h.rejected} {...(routeLabel ? { routeLabel } : {})} />
          </li>
        ))}
      </ol>
      {view.error ? (
        <p className="error-text trace-error" data-testid="trace-error">
          ✗ {view.error}
        </p>
      ) : null}
      {view.outcome ? (
        <p className="trace-outcome" data-testid="trace-outcome">
          {view.outcome}
        </p>
      ) : null}
      {view.notes.length ? (
        <ul className="muted small trace-notes">
          {view.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
