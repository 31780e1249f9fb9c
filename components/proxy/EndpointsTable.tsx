import type { ClusterEndpointsRow } from '@/server/api/summary/index';

export function EndpointsTable({ endpoints }: { endpoints: readonly ClusterEndpointsRow[] }) {
  if (endpoints.length === 0) return <p className="muted">No endpoints.</p>;
  return (
    <table className="table" data-testid="endpoints-table">
      <thead>
        <tr>
          <th>cluster</th>
          <th>endpoint</th>
          <th>locality</th>
          <th>health</th>
          <th className="num">weight</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.flatMap((c) => {
          const rows = c.endpoints.length ? c.endpoints : [undefined];
          return rows.map((e, i) => (
            <tr key={`${c.cluster}-${i}`} className={i === 0 ? 'group-start' : 'group-cont'}>
              {i === 0 ? (
                <td rowSpan={rows.length} className="mono small">{c.cluster}</td>
              ) : null}
              {e ? (
                <>
                  <td className="mono">{e.address}</td>
                  <td>{e.locality || <span className="muted">—</span>}</td>
                  <td className={`health-${e.health.toLowerCase()}`}>{e.health}</td>
                  <td className="num">{e.weight ?? ''}</td>
                </>
              ) : (
                <td colSpan={4} className="muted">no endpoints</td>
              )}
            </tr>
          ));
        })}
      </tbody>
    </table>
  );
}
