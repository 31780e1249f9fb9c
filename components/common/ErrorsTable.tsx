import type { LoadError } from '@/server/model/mesh';

/** Located problems: file, document, object, field path, message; objects served from their last good version are marked stale. */
export function ErrorsTable({ errors, caption }: { errors: readonly LoadError[]; caption: string }) {
  if (errors.length === 0) return null;
  return (
    <table className="table errors" data-testid="errors-table">
      <caption>
        {caption} ({errors.length})
      </caption>
      <thead>
        <tr>
          <th>severity</th>
          <th>file</th>
          <th>doc</th>
          <th>object</th>
          <th>path</th>
          <th>message</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((e, i) => (
          <tr key={i} className={e.staleSince ? `${e.severity} stale` : e.severity} data-stale-since={e.staleSince}>
            <td>{e.severity}</td>
            <td className="mono">{e.file ?? ''}</td>
            <td>{e.doc ?? ''}</td>
            <td className="mono">{e.object ?? ''}</td>
            <td className="mono">{e.path ?? ''}</td>
            <td>
              {e.staleSince && !e.message.includes('stale: last good from') ? (
                <span className="badge stale" title="the last good version of this object is served">
                  stale: last good from {e.staleSince}{' '}
                </span>
              ) : null}
              {e.message}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
