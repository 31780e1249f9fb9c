// Where the mesh comes from and whether that works: one line per source (demo / files / cluster,
// connected / failing), the ADS server, and how many located input errors there are.
import type { SourceStatus, XdsState } from '@/server/api/contract';

const KIND: Record<SourceStatus['kind'], string> = {
  demo: 'demo mesh',
  file: 'files',
  kube: 'cluster',
  sandbox: 'sandbox',
  prometheus: 'Prometheus',
};

/** The embedded demo is a file source named `demo` (server/runtime.ts), so the id decides too. */
export const sourceLabel = (s: Pick<SourceStatus, 'id' | 'kind'>): string =>
  s.kind === 'demo' || s.id === 'demo' ? KIND.demo : KIND[s.kind];

export function xdsText(x: XdsState): string {
  if (x.state === 'listening') return `listening on :${x.port}`;
  if (x.state === 'failing') return x.error;
  if (x.state === 'off') return 'off (serve with --xds-port to let Envoys connect)';
  return x.state;
}

/**
 * The banner's overall tone: failing if a mesh source or ADS fails, else warning on errors/resyncing (and a
 * failing Prometheus: only the traffic views depend on it), else ok.
 */
export function bannerTone(sources: readonly SourceStatus[], xds: XdsState, errorCount: number): 'ok' | 'warn' | 'fail' {
  if (sources.some((s) => s.state === 'failing' && s.kind !== 'prometheus') || xds.state === 'failing') return 'fail';
  if (errorCount > 0 || sources.some((s) => s.state !== 'connected') || sources.length === 0) return 'warn';
  return 'ok';
}

export function SourceBanner({
  sources,
  xds,
  errorCount,
  version,
}: {
  sources: readonly SourceStatus[];
  xds: XdsState;
  errorCount: number;
  version?: number;
}) {
  const tone = bannerTone(sources, xds, errorCount);
  return (
    <section className={`source-banner tone-${tone}`} data-testid="sources" aria-label="sources">
      {sources.length === 0 ? (
        <span className="muted">No source has reported yet: the inputs are still loading.</span>
      ) : (
        sources.map((s) => (
          <span key={s.id} className={`source state-${s.state}`} data-source-kind={s.kind}>
            <strong>{sourceLabel(s)}</strong>
            {s.id !== s.kind && s.id !== 'demo' ? <span className="muted"> {s.id}</span> : null} <span className="state">{s.state}</span>
            {s.detail ? <span className="muted"> {s.detail}</span> : null}
            {s.lastError ? <span className="error-text"> — {s.lastError}</span> : null}
          </span>
        ))
      )}
      <span data-testid="xds-state" className="source">
        <strong>ADS</strong> <span className={xds.state === 'failing' ? 'error-text' : 'muted'}>{xdsText(xds)}</span>
      </span>
      <span className="source">
        {errorCount === 0 ? (
          <span className="muted">no input errors</span>
        ) : (
          <a href="#input-errors" className="error-text">
            {errorCount} input error{errorCount === 1 ? '' : 's'}
          </a>
        )}
      </span>
      {version !== undefined ? <span className="muted source">snapshot v{version}</span> : null}
    </section>
  );
}
