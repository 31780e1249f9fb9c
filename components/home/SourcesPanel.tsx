import type { XdsState } from '@/server/api/types';
import type { SourceStatus } from '@/server/sources/types';

function xdsText(x: XdsState): string {
  if (x.state === 'listening') return `listening on :${x.port}`;
  if (x.state === 'failing') return x.error;
  return x.state;
}

export function SourcesPanel({ sources, xds }: { sources: readonly SourceStatus[]; xds: XdsState }) {
  return (
    <section className="panel" data-testid="sources">
      <h2>Sources</h2>
      {sources.length === 0 ? (
        <p className="muted">No source has reported yet.</p>
      ) : (
        <ul className="sources">
          {sources.map((s) => (
            <li key={s.id} className={`source state-${s.state}`}>
              <strong>{s.id}</strong> <span className="muted">({s.kind})</span> <span className="state">{s.state}</span>
              {s.detail ? <span className="muted"> — {s.detail}</span> : null}
              {s.lastError ? <div className="error-text">{s.lastError}</div> : null}
            </li>
          ))}
        </ul>
      )}
      <p data-testid="xds-state">
        <strong>ADS (gRPC)</strong> <span className={xds.state === 'failing' ? 'error-text' : 'muted'}>{xdsText(xds)}</span>
      </p>
    </section>
  );
}
