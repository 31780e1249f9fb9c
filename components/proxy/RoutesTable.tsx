import type { RouteConfigRow } from '@/server/api/summary/index';

export function RoutesTable({ routes }: { routes: readonly RouteConfigRow[] }) {
  if (routes.length === 0) return <p className="muted">No route configurations.</p>;
  return (
    <div data-testid="routes-table">
      {routes.map((rc) => (
        <details key={rc.name} id={`route-${encodeURIComponent(rc.name)}`} className="route-config" open={routes.length <= 6}>
          <summary>
            <span className="mono">{rc.name}</span> <span className="muted">({rc.virtualHosts.length} virtual hosts)</span>
          </summary>
          <table className="table">
            <thead>
              <tr>
                <th>virtual host</th>
                <th>domains</th>
                <th>route</th>
                <th>match</th>
                <th>action</th>
                <th>clusters (weight %)</th>
                <th>details</th>
              </tr>
            </thead>
            <tbody>
              {rc.virtualHosts.flatMap((vh) => {
                const rows = vh.routes.length ? vh.routes : [undefined];
                return rows.map((r, i) => (
                  <tr key={`${vh.name}-${i}`} className={i === 0 ? 'group-start' : 'group-cont'}>
                    {i === 0 ? (
                      <>
                        <td rowSpan={rows.length} className="mono">{vh.name}</td>
                        <td rowSpan={rows.length} className="mono small">{vh.domains.join(', ')}</td>
                      </>
                    ) : null}
                    {r ? (
                      <>
                        <td className="mono small" title={r.source}>{r.name ?? ''}</td>
                        <td className="mono small match">{r.match}</td>
                        <td>{r.action}</td>
                        <td className="mono small">
                          {r.clusters.map((c) => (
                            <div key={c.name}>
                              {c.name}
                              {r.clusters.length > 1 ? <span className="weight"> {c.percent}%</span> : null}
                            </div>
                          ))}
                        </td>
                        <td className="small">{r.details.join('; ')}</td>
                      </>
                    ) : (
                      <td colSpan={5} className="muted">no routes</td>
                    )}
                  </tr>
                ));
              })}
            </tbody>
          </table>
        </details>
      ))}
    </div>
  );
}
