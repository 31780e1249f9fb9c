import { byteCompare } from '@/server/lib/compare';
export function Labels({ labels }: { labels: Readonly<Record<string, string>> }) {
  const entries = Object.entries(labels).sort(([a], [b]) => byteCompare(a, b));
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
