import type { LoadError } from '@/server/model/mesh';

/** Located problems: file, document, object, field path, message. */
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
          // biome-ignore lint/suspicious/noArrayIndexKey: errors have no identity; the list is replaced whole
          <tr key={i} className={e.severity}>
            <td>{e.severity}</td>
            <td className="mono">{e.file ?? ''}</td>
            <td>{e.doc ?? ''}</td>
            <td className="mono">{e.object ?? ''}</td>
            <td className="mono">{e.path ?? ''}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
