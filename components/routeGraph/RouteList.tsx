'use client';
// The routes the graph shows, as a keyboard-friendly list: virtual host, position, match, where it goes,
// and whether it can match at all (or what the traced request did with it). Selecting one selects its node.
import { outgoing } from './model/details';
import type { TracePath } from './model/trace';
import type { RouteGraph } from './model/types';

export interface RouteListProps {
  graph: RouteGraph;
  selected?: string;
  trace?: TracePath;
  onSelect: (id: string) => void;
  /** Rows drawn at most (the graph itself is already filtered). */
  limit?: number;
}

export function RouteList({ graph, selected, trace, onSelect, limit = 200 }: RouteListProps) {
  const vhosts = new Map(graph.nodes.filter((n) => n.kind === 'virtualHost').map((n) => [n.id, n.label]));
  const routes = graph.nodes.filter((n) => n.kind === 'route');
  if (routes.length === 0)
    return <p className="muted small">No routes in this view (TCP listeners and clusters only, or a filter that matches none).</p>;
  return (
    <table className="table rg-routes" data-testid="graph-route-list">
      <caption>
        Routes in this view ({routes.length}
        {routes.length > limit ? `, first ${limit} listed` : ''}) — Envoy takes the first route that matches, top to bottom
      </caption>
      <thead>
        <tr>
          <th>virtual host</th>
          <th className="num">#</th>
          <th>match</th>
          <th>to</th>
          <th>status</th>
        </tr>
      </thead>
      <tbody>
        {routes.slice(0, limit).map((n) => {
          const to = outgoing(graph, n.id);
          const rejected = trace?.rejected.get(n.id);
          const status = n.shadowed ? 'shadowed' : trace?.nodes.has(n.id) ? 'taken' : rejected ? 'rejected' : '';
          return (
            <tr
              key={n.id}
              data-node-id={n.id}
              data-status={status}
              className={`${n.id === selected ? 'selected ' : ''}${status}`}
              tabIndex={0}
              aria-selected={n.id === selected}
              onClick={() => onSelect(n.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onSelect(n.id);
                }
              }}
            >
              <td className="mono small">{vhosts.get(n.virtualHostId ?? '') ?? ''}</td>
              <td className="num">{n.routeIndex}</td>
              <td className="mono small">{n.label.replace(/^#\d+ /, '')}</td>
              <td className="mono small">
                {to.length
                  ? to.map((o) => (
                      <div key={o.target}>
                        {o.label}
                        {o.percent !== undefined ? <span className="weight"> {o.percent}%</span> : null}
                      </div>
                    ))
                  : (n.detail ?? '').replace(/^.* → /, '')}
              </td>
              <td className="small">
                {n.shadowed ? (
                  <span className="rg-shadowed">never matches — {n.shadowed.reason.replace(/^never matches: /, '')}</span>
                ) : null}
                {status === 'taken' ? <span className="rg-onpath">taken by the traced request</span> : null}
                {rejected ? <span className="error-text">rejected: {rejected}</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
