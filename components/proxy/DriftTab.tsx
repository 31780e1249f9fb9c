'use client';
// The Drift tab: meshscope's config for this pod against the pod's own Envoy config
// (GET /api/proxies/POD.NS/drift): counts per type, rejected config (Envoy's NACK record) with its text, the
// differing resources with their field paths and a side-by-side JSON diff, and the route changes in the
// sandbox's words (before = meshscope, after = Envoy). `unmodelled` differences (telemetry meshscope does
// not generate) are listed apart and do not make the pod out of sync. Refetched when the snapshot changes.
import { useState } from 'react';
import { useDrift } from '@/components/data/liveData';
import type { DriftResponse } from '@/server/api/contract';
import { LiveError } from './LiveTab';

const TYPES = ['listeners', 'routes', 'clusters', 'endpoints'] as const;
const CHANGE_LABEL = { changed: 'changed', onlyInEnvoy: 'only in Envoy', onlyInMeshscope: 'only in meshscope' } as const;

const json = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v, null, 2));

/** The two sides of one resource, next to each other (the differing field paths are listed above them). */
function SideBySide({ meshscope, envoy }: { meshscope: unknown; envoy: unknown }) {
  return (
    <div className="drift-side-by-side" data-testid="drift-json-diff">
      <figure>
        <figcaption className="muted">meshscope</figcaption>
        <pre className="mono">{json(meshscope)}</pre>
      </figure>
      <figure>
        <figcaption className="muted">Envoy</figcaption>
        <pre className="mono">{json(envoy)}</pre>
      </figure>
    </div>
  );
}

export function DriftBodyView({ body }: { body: Omit<DriftResponse, 'proxy'> }) {
  const [open, setOpen] = useState<string | undefined>();
  const real = body.resources.filter((r) => r.class !== 'unmodelled');
  const unmodelled = body.resources.filter((r) => r.class === 'unmodelled');
  return (
    <div className="drift-view" data-testid="drift-view" data-in-sync={String(body.inSync)}>
      <p data-testid="drift-verdict" className={body.inSync ? 'ok-text' : 'error-text'}>
        <strong>{body.inSync ? 'In sync' : `${real.length} difference${real.length === 1 ? '' : 's'}`}</strong>
        {body.nacked.length ? ` · ${body.nacked.length} rejected` : ''}
        <span className="muted small">
          {' '}
          (not compared: {body.ignored.static} static, {body.ignored.warming} warming, {body.ignored.draining} draining)
        </span>
      </p>
      <table className="grid small" data-testid="drift-counts">
        <thead>
          <tr>
            <th>type</th>
            <th>same</th>
            <th>changed</th>
            <th>only in Envoy</th>
            <th>only in meshscope</th>
          </tr>
        </thead>
        <tbody>
          {TYPES.map((t) => (
            <tr key={t} data-type={t}>
              <td>{t}</td>
              <td>{body.counts[t].same}</td>
              <td>{body.counts[t].changed}</td>
              <td>{body.counts[t].onlyInEnvoy}</td>
              <td>{body.counts[t].onlyInMeshscope}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {body.nacked.length ? (
        <section data-testid="drift-nacked">
          <h3>Rejected by Envoy</h3>
          <ul className="small">
            {body.nacked.map((n) => (
              <li key={`${n.type}/${n.name}`}>
                <span className="mono">
                  {n.type} {n.name}
                </span>
                : <span className="error-text">{n.details}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {body.routes.length ? (
        <section data-testid="drift-routes">
          <h3>Route changes (meshscope → Envoy)</h3>
          <ul className="small">
            {body.routes.map((r) => (
              <li key={`${r.routeConfig}/${r.virtualHost}/${r.route}/${r.change}`}>
                <span className="mono">
                  {r.routeConfig} · {r.virtualHost} · {r.route}
                </span>{' '}
                {r.change}
                {r.detail ? `: ${r.detail}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {[...real, ...unmodelled].length ? (
        <section>
          <h3>Resources</h3>
          <ul className="drift-resources small" data-testid="drift-resources">
            {[...real, ...unmodelled].map((r) => {
              const key = `${r.type}/${r.name}`;
              return (
                <li key={key} data-testid="drift-resource" data-change={r.change} data-class={r.class ?? ''}>
                  <button type="button" className="link" onClick={() => setOpen(open === key ? undefined : key)}>
                    <span className="badge">{r.type}</span> <span className="mono">{r.name}</span> — {CHANGE_LABEL[r.change]}
                    {r.class ? <span className="muted"> ({r.class})</span> : null}
                  </button>
                  {r.paths?.length ? <div className="mono muted">{r.paths.join(', ')}</div> : null}
                  {open === key ? <SideBySide meshscope={r.meshscope} envoy={r.envoy} /> : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function DriftTab({ proxyId, version }: { proxyId: string; version: number }) {
  const q = useDrift(proxyId, version);
  if (q.isPending)
    return (
      <p className="muted" role="status" data-testid="drift-loading">
        Comparing with the pod&apos;s Envoy…
      </p>
    );
  if (q.error || !q.data) return <LiveError error={q.error} />;
  return <DriftBodyView body={q.data} />;
}
