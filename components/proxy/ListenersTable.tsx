import type { ListenerRow } from '@/server/api/summary/index';

function Target({ rds, inlineRoute, clusters }: { rds?: string; inlineRoute?: string; clusters: string[] }) {
  if (rds !== undefined)
    return (
      <span>
        RDS <a href={`#route-${encodeURIComponent(rds)}`} className="mono">{rds}</a>
      </span>
    );
  if (inlineRoute !== undefined) return <span>inline route <span className="mono">{inlineRoute}</span></span>;
  if (clusters.length) return <span>TCP → <span className="mono">{clusters.join(', ')}</span></span>;
  return <span className="muted">—</span>;
}

export function ListenersTable({ listeners }: { listeners: readonly ListenerRow[] }) {
  if (listeners.length === 0) return <p className="muted">No listeners.</p>;
  return (
    <table className="table" data-testid="listeners-table">
      <thead>
        <tr>
          <th>name</th>
          <th>address</th>
          <th>filter chain match</th>
          <th>filters</th>
          <th>→ routes / cluster</th>
        </tr>
      </thead>
      <tbody>
        {listeners.flatMap((l) => {
          const chains = l.defaultChain ? [...l.chains, { ...l.defaultChain, name: '(default chain)' }] : l.chains;
          const rows = chains.length ? chains : [undefined];
          return rows.map((c, i) => (
            <tr key={`${l.name}-${i}`} className={i === 0 ? 'group-start' : 'group-cont'}>
              {i === 0 ? (
                <>
                  <td rowSpan={rows.length} className="mono">
                    {l.name}
                    {l.notes.length ? <div className="muted small">{l.notes.join(', ')}</div> : null}
                  </td>
                  <td rowSpan={rows.length} className="mono">{l.address}</td>
                </>
              ) : null}
              {c ? (
                <>
                  <td className="mono">
                    {c.name ? <div className="muted small">{c.name}</div> : null}
                    {c.match}
                  </td>
                  <td className="small">{c.filters.join(', ')}</td>
                  <td>
                    <Target {...c} />
                  </td>
                </>
              ) : (
                <td colSpan={3} className="muted">no filter chains</td>
              )}
            </tr>
          ));
        })}
      </tbody>
    </table>
  );
}
