// One line on the overview for `serve --contracts FILE`: how many routing contracts pass on the live
// mesh, and which fail (name + why). Rendered only when a contracts file is loaded.
export interface ContractsSummary {
  file: string;
  passed: number;
  failed: number;
  failures: { name: string; detail: string }[];
  /** Problems reading the file (located), when it did not parse. */
  errors: string[];
}

export function ContractsLine({ summary }: { summary: ContractsSummary }) {
  const bad = summary.failed > 0 || summary.errors.length > 0;
  return (
    <section className="panel" id="contracts" data-testid="contracts-line">
      <p className={bad ? 'error' : 'muted'}>
        Routing contracts ({summary.file}): {summary.passed} passed, {summary.failed} failed
        {summary.errors.length > 0 ? `; the file has ${summary.errors.length} error(s)` : ''}
      </p>
      {bad ? (
        <ul>
          {summary.failures.map((f) => (
            <li key={f.name}>
              <strong>{f.name}</strong>: {f.detail}
            </li>
          ))}
          {summary.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
