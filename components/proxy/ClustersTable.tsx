import type { ClusterRow } from '@/server/api/summary/index';

export function ClustersTable({ clusters }: { clusters: readonly ClusterRow[] }) {
  if (clusters.length === 0) return <p className="muted">No clusters.</p>;
  return (
    <table className="table" data-testid="clusters-table">
      <thead>
        <tr>
          <th>name</th>
          <th>type</th>
          <th>lb</th>
          <th>direction</th>
          <th>port</th>
          <th>subset</th>
          <th>host</th>
        </tr>
      </thead>
      <tbody>
        {clusters.map((c) => (
          <tr key={c.name} id={`cluster-${encodeURIComponent(c.name)}`}>
            <td className="mono small">{c.name}</td>
            <td>{c.type}</td>
            <td>{c.lb}</td>
            <td>{c.direction ?? ''}</td>
            <td className="num">{c.port ?? ''}</td>
            <td>{c.subset ?? ''}</td>
            <td className="mono small">{c.host ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
