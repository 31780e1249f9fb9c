export function Labels({ labels }: { labels: Readonly<Record<string, string>> }) {
  const entries = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <span className="labels">
      {entries.map(([k, v]) => (
        <code key={k} className="label">
          {k}={v}
        </code>
      ))}
    </span>
  );
}
