'use client';
// The draft's located errors and the analyzers' findings (new / resolved / unchanged against live).
// Clicking a located one moves the editor to its line.
import { useState } from 'react';
import type { SandboxFinding, SandboxProblem } from '@/server/sandbox/types';

/** Errors listed before "show all" (one YAML mistake often cascades into many parser errors). */
const FIRST_ERRORS = 5;

function Where({ p, onGoto }: { p: SandboxProblem; onGoto: (line: number) => void }) {
  if (!p.line) return <span className="muted">live config</span>;
  return (
    <button type="button" className="linklike mono" onClick={() => onGoto(p.line as number)}>
      line {p.line}
      {p.column ? `:${p.column}` : ''}
    </button>
  );
}

export function ProblemsPanel({
  errors,
  findings,
  onGoto,
}: {
  errors: readonly SandboxProblem[];
  findings: readonly SandboxFinding[];
  onGoto: (line: number) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = findings.filter((f) => f.state !== 'unchanged');
  const listed = all ? errors : errors.slice(0, FIRST_ERRORS);
  const unchanged = findings.length - shown.length;
  return (
    <section className="panel" data-testid="sandbox-problems">
      <h2>
        Errors and findings{' '}
        <span className="muted small">
          {errors.length} error{errors.length === 1 ? '' : 's'} · {shown.length} finding{shown.length === 1 ? '' : 's'} changed by the draft
          {unchanged ? ` · ${unchanged} unchanged` : ''}
        </span>
      </h2>
      {errors.length === 0 && shown.length === 0 ? (
        <p className="muted">The draft parses and validates; it adds or resolves no analyzer finding.</p>
      ) : (
        <table className="table errors">
          <thead>
            <tr>
              <th>level</th>
              <th>where</th>
              <th>object · field</th>
              <th>message</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((e) => (
              <tr
                key={`e${e.doc ?? ''}:${e.line ?? ''}:${e.column ?? ''}:${e.path ?? ''}:${e.message}`}
                className={e.level}
                data-testid="sandbox-error"
                data-line={e.line ?? ''}
              >
                <td>{e.level}</td>
                <td>
                  <Where p={e} onGoto={onGoto} />
                </td>
                <td className="mono small">
                  {e.object ?? ''}
                  {e.path ? ` · ${e.path}` : ''}
                </td>
                <td>{e.message}</td>
              </tr>
            ))}
            {shown.map((f) => (
              <tr
                key={`f${f.code ?? ''}:${f.object ?? ''}:${f.path ?? ''}:${f.line ?? ''}:${f.message}`}
                className={f.level}
                data-testid="sandbox-finding"
                data-code={f.code ?? ''}
                data-line={f.line ?? ''}
              >
                <td>
                  {f.level}
                  <span className={`badge sb-state-${f.state}`}>{f.state}</span>
                </td>
                <td>
                  <Where p={f} onGoto={onGoto} />
                </td>
                <td className="mono small">
                  {f.code ? `${f.code} ` : ''}
                  {f.object ?? ''}
                  {f.path ? ` · ${f.path}` : ''}
                </td>
                <td>{f.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {errors.length > listed.length ? (
        <button type="button" className="linklike small" onClick={() => setAll(true)}>
          show all {errors.length} errors
        </button>
      ) : null}
    </section>
  );
}
