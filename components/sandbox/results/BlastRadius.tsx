'use client';
// Which proxies the draft changes, each with its short summary; choosing one shows its diff.
import type { BlastRadiusEntry, EvaluateResult } from '@/server/sandbox/types';

export function BlastRadius({
  entries,
  stats,
  selected,
  onSelect,
}: {
  entries: readonly BlastRadiusEntry[];
  stats: EvaluateResult['stats'];
  selected?: string | undefined;
  onSelect: (proxy: string) => void;
}) {
  return (
    <section className="panel" data-testid="blast-radius" data-count={entries.length}>
      <h2>
        Blast radius{' '}
        <span className="muted small">
          {entries.length} of {stats.proxies} proxies change
          {stats.candidates !== undefined ? ` · ${stats.candidates} candidates` : ''} · {stats.translated} translated
          {stats.ms !== undefined ? ` · ${Math.round(stats.ms)} ms` : ''}
        </span>
      </h2>
      {entries.length === 0 ? (
        <p className="muted" data-testid="blast-radius-empty">
          No proxy’s listeners, routes, clusters or endpoints change with this draft.
        </p>
      ) : (
        <table className="table sb-blast">
          <thead>
            <tr>
              <th>proxy</th>
              <th>changes</th>
              <th>what changes</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.proxy} data-proxy={e.proxy} className={e.proxy === selected ? 'selected' : undefined}>
                <td className="mono">
                  <button type="button" className="linklike" onClick={() => onSelect(e.proxy)} aria-pressed={e.proxy === selected}>
                    {e.proxy}
                  </button>
                  {e.type === 'router' ? <span className="badge router">gateway</span> : null}
                  {e.unverified ? (
                    <span className="badge warn" title="named by change impact but not translated (translation limit)">
                      unverified
                    </span>
                  ) : null}
                </td>
                <td className="small">{e.types.join(', ')}</td>
                <td className="small">
                  {e.summary.slice(0, 4).map((s) => (
                    <div key={s}>{s}</div>
                  ))}
                  {e.summary.length > 4 ? <div className="muted">+{e.summary.length - 4} more</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
