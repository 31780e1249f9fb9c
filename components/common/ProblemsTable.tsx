// The one table of located problems (server/model/problem): input errors, translation problems and analyzer
// findings. Callers pick the columns; every row is a Problem.
import type { ReactNode } from 'react';
import { levelOf, type Problem } from '@/server/model/problem';

/** A column: its header is its name. `level` is Istio's spelling of the severity (Error, Warning, Info). */
export type ProblemColumn = 'severity' | 'level' | 'code' | 'file' | 'doc' | 'line' | 'object' | 'path' | 'message';

const MONO: ReadonlySet<ProblemColumn> = new Set(['code', 'file', 'object', 'path']);

function cell(p: Problem, c: ProblemColumn): string | number {
  switch (c) {
    case 'severity':
      return p.severity;
    case 'level':
      return levelOf(p.severity);
    case 'message':
      return p.message;
    default:
      return p[c] ?? '';
  }
}

/**
 * A row's class (severity; `stale` when the object's last good version is served; `not-translated` for an Istio
 * object that fails validation, kept for analysis only) and data attributes.
 */
function rowAttributes(p: Problem) {
  return {
    className: `${p.severity === 'error' ? 'error' : 'warning'}${p.staleSince ? ' stale' : ''}${p.notTranslated ? ' not-translated' : ''}`,
    'data-code': p.code,
    'data-stale-since': p.staleSince,
    'data-not-translated': p.notTranslated ? 'true' : undefined,
  };
}

/** Input errors and translation problems: where each one is (file, document, line, object, field path). */
export const LOCATED_COLUMNS: readonly ProblemColumn[] = ['severity', 'file', 'doc', 'line', 'object', 'path', 'message'];
/** Analyzer findings: Istio's level and code, the object and field path. */
export const FINDING_COLUMNS: readonly ProblemColumn[] = ['level', 'code', 'object', 'path', 'message'];

export function ProblemsTable({
  problems,
  caption,
  columns = LOCATED_COLUMNS,
  testId = 'errors-table',
  empty = null,
}: {
  problems: readonly Problem[];
  caption: string;
  columns?: readonly ProblemColumn[];
  testId?: string;
  /** Shown instead of the table when there is nothing to list. */
  empty?: ReactNode;
}) {
  if (problems.length === 0) return empty;
  return (
    <table className="table errors" data-testid={testId}>
      <caption>
        {caption} ({problems.length})
      </caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {problems.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: problems may repeat and the list is never reordered
          <tr key={i} {...rowAttributes(p)}>
            {columns.map((c) => (
              <td key={c} className={MONO.has(c) ? 'mono' : undefined}>
                {cell(p, c)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
