// `meshscope analyze` findings on the overview: Istio's code, level, the object and YAML path, the message.
// Schema findings (IST0106 / IST0133) are left out: the input errors table below lists the same problems.
import type { Finding } from '@/server/api/contract';

const SCHEMA_CODES = new Set(['IST0106', 'IST0133']);

export const panelFindings = (findings: readonly Finding[]): Finding[] => findings.filter((f) => !SCHEMA_CODES.has(f.code));

export function FindingsPanel({ findings }: { findings: readonly Finding[] }) {
  const shown = panelFindings(findings);
  if (shown.length === 0)
    return (
      <p className="muted" data-testid="findings-empty">
        No analyzer findings.
      </p>
    );
  return (
    <table className="table errors" data-testid="findings-table">
      <caption>Analyzer findings ({shown.length})</caption>
      <thead>
        <tr>
          <th>level</th>
          <th>code</th>
          <th>object</th>
          <th>path</th>
          <th>message</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: findings have no identity; the list is replaced whole
          <tr key={i} className={f.level === 'Error' ? 'error' : 'warning'} data-code={f.code}>
            <td>{f.level}</td>
            <td className="mono">{f.code}</td>
            <td className="mono">{f.object}</td>
            <td className="mono">{f.path ?? ''}</td>
            <td>{f.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
