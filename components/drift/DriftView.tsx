'use client';
// The Drift view (issue 21 §4): one drift body (server/drift/types.ts) — counts per type, rejected config with
// Envoy's text, the route changes in the sandbox's words, and each differing resource with its field paths and
// the two sides side by side (the differing lines marked), or as a structural delta (jsondiffpatch).
// Used by the proxy page's Drift tab (meshscope ↔ the pod's Envoy) and by /dump's offline compare (A ↔ B).
import { create } from 'jsondiffpatch';
import { format } from 'jsondiffpatch/formatters/html';
import 'jsondiffpatch/formatters/styles/html.css';
import { useMemo, useState } from 'react';
import type { DriftBody, DriftResource, DriftType } from '@/server/drift/types';
import type { RouteChange } from '@/server/sandbox/types';
import type { SimRequest } from '@/server/simulate/types';
import { driftSummary, printWithPaths } from './model';
import { requestForRoute } from './traceBoth';
import { TraceBoth, type TraceSides } from './TraceBoth';
import './drift.css';

const TYPES: readonly DriftType[] = ['listeners', 'routes', 'clusters', 'endpoints'];

export interface DriftLabels {
  /** The expected side ("meshscope", or a file name offline). */
  expected: string;
  /** The actual side ("Envoy", or a file name offline). */
  actual: string;
}

export interface DriftViewProps {
  body: DriftBody;
  /** POD.NS, when the body is a pod's (shown in the heading line). */
  proxyId?: string;
  labels?: DriftLabels;
  /** "Trace this request on both": the two sides to simulate on (a pod, or the two dumps compared). */
  trace?: TraceSides;
}

/** A request that reaches the route of a route change, from the route configuration's body on either side. */
function routeRequest(body: DriftBody, r: RouteChange, mode: TraceSides['mode']): SimRequest | undefined {
  const rc = body.resources.find((x) => x.type === 'routes' && x.name === r.routeConfig);
  const pick = { routeConfig: r.routeConfig, virtualHost: r.virtualHost, route: r.route };
  const onExpected = () => requestForRoute(rc?.meshscope, { ...pick, ...(r.from !== undefined ? { index: r.from } : {}) }, mode);
  const onActual = () => requestForRoute(rc?.envoy, { ...pick, ...(r.to !== undefined ? { index: r.to } : {}) }, mode);
  return r.change === 'added' ? (onActual() ?? onExpected()) : (onExpected() ?? onActual());
}

/** The first request worth tracing: a changed route's, else the first virtual host of a differing route configuration. */
function firstRequest(body: DriftBody, mode: TraceSides['mode']): SimRequest {
  for (const r of body.routes) {
    const req = routeRequest(body, r, mode);
    if (req) return req;
  }
  for (const rc of body.resources) {
    if (rc.type !== 'routes') continue;
    const side = (rc.meshscope ?? rc.envoy) as { virtual_hosts?: Array<{ name?: string }> } | undefined;
    const vh = side?.virtual_hosts?.[0]?.name;
    const req = vh ? requestForRoute(side, { routeConfig: rc.name, virtualHost: vh }, mode) : undefined;
    if (req) return req;
  }
  return { mode, port: 80, path: '/' };
}

const differ = create({
  objectHash: (o: object, i?: number) => {
    const r = o as { name?: unknown; cluster_name?: unknown };
    return typeof r.name === 'string' ? r.name : typeof r.cluster_name === 'string' ? r.cluster_name : `#${i ?? 0}`;
  },
  arrays: { detectMove: true },
});

function Side({ title, value, paths, testId }: { title: string; value: unknown; paths: readonly string[]; testId: string }) {
  const lines = useMemo(() => (value === undefined ? undefined : printWithPaths(value, paths)), [value, paths]);
  return (
    <figure data-testid={testId}>
      <figcaption className="muted small">{title}</figcaption>
      {lines ? (
        <pre className="mono">
          {lines.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one printed value, in order
            <span key={i} className={l.hit ? 'hit' : undefined}>
              {l.text}
            </span>
          ))}
        </pre>
      ) : (
        <p className="muted small">(not on this side)</p>
      )}
    </figure>
  );
}

function Delta({ before, after }: { before: unknown; after: unknown }) {
  const html = useMemo(() => {
    const d = differ.diff(before ?? {}, after ?? {});
    return d ? format(d, before ?? {}) : undefined;
  }, [before, after]);
  if (!html) return <p className="muted small">No difference.</p>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: jsondiffpatch's formatter escapes every value it prints.
  return <div className="jsondiffpatch-unchanged-hidden" data-testid="drift-delta" dangerouslySetInnerHTML={{ __html: html }} />;
}

function ResourceRow({ r, labels }: { r: DriftResource; labels: DriftLabels }) {
  const [open, setOpen] = useState(false);
  const [delta, setDelta] = useState(false);
  const change =
    r.change === 'changed' ? 'changed' : r.change === 'onlyInEnvoy' ? `only in ${labels.actual}` : `only in ${labels.expected}`;
  const paths = r.paths ?? [];
  return (
    <li data-testid="drift-resource" data-type={r.type} data-name={r.name} data-change={r.change} data-class={r.class ?? ''}>
      <button type="button" className="drift-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} <span className="badge">{r.type}</span> <span className="mono">{r.name}</span> — {change}
        {r.class ? <span className="muted"> ({r.class}: not generated by meshscope, not counted)</span> : null}
      </button>
      {paths.length ? (
        <ul className="drift-paths mono small muted" data-testid="drift-paths">
          {paths.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <>
          {r.meshscope !== undefined && r.envoy !== undefined ? (
            <label className="small muted">
              <input type="checkbox" checked={delta} onChange={(e) => setDelta(e.target.checked)} /> as a structural delta
            </label>
          ) : null}
          {delta ? (
            <Delta before={r.meshscope} after={r.envoy} />
          ) : (
            <div className="drift-sides" data-testid="drift-json-diff">
              <Side title={labels.expected} value={r.meshscope} paths={paths} testId="drift-side-expected" />
              <Side title={labels.actual} value={r.envoy} paths={paths} testId="drift-side-actual" />
            </div>
          )}
        </>
      ) : null}
    </li>
  );
}

export function DriftView({ body, proxyId, labels = { expected: 'meshscope', actual: 'Envoy' }, trace }: DriftViewProps) {
  const [traced, setTraced] = useState<SimRequest>();
  const real = body.resources.filter((r) => r.class !== 'unmodelled');
  const unmodelled = body.resources.filter((r) => r.class === 'unmodelled');
  const ig = body.ignored;
  return (
    <div className="drift-view" data-testid="drift-view" data-in-sync={String(body.inSync)}>
      <p className={`drift-verdict ${body.inSync ? 'in-sync' : 'error-text'}`} data-testid="drift-verdict">
        <strong>{body.inSync ? 'In sync' : `Not in sync: ${driftSummary(body.counts, labels)}`}</strong>
        {body.nacked.length ? ` · ${body.nacked.length} rejected by Envoy` : ''}
        {proxyId ? <span className="muted"> · {proxyId}</span> : null}
      </p>
      <p className="muted small">
        {labels.expected} (expected) against {labels.actual} (actual), per resource. Not compared: {ig.static} static, {ig.warming} warming,{' '}
        {ig.draining} draining.
        {unmodelled.length ? ` ${unmodelled.length} differ only in telemetry meshscope does not generate.` : ''}
      </p>
      <table className="drift-counts small" data-testid="drift-counts">
        <thead>
          <tr>
            <th>type</th>
            <th>same</th>
            <th>changed</th>
            <th>only in {labels.actual}</th>
            <th>only in {labels.expected}</th>
          </tr>
        </thead>
        <tbody>
          {TYPES.map((t) => {
            const c = body.counts[t];
            return (
              <tr key={t} data-type={t}>
                <td>{t}</td>
                <td>{c.same}</td>
                {[c.changed, c.onlyInEnvoy, c.onlyInMeshscope].map((n, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                  <td key={i} className={n ? 'nonzero' : undefined}>
                    {n}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {trace ? (
        <p>
          <button type="button" className="link" data-testid="drift-trace-both" onClick={() => setTraced(firstRequest(body, trace.mode))}>
            Trace a request on {labels.expected}&apos;s config and on {labels.actual}&apos;s
          </button>
        </p>
      ) : null}
      {trace && traced ? <TraceBoth sides={trace} labels={labels} request={traced} onClose={() => setTraced(undefined)} /> : null}
      {body.nacked.length ? (
        <section className="drift-nacked" data-testid="drift-nacked">
          <h3>Rejected config</h3>
          <ul className="small">
            {body.nacked.map((n) => (
              <li key={`${n.type}/${n.name}`}>
                <span className="badge">{n.type}</span> <span className="mono">{n.name}</span>
                <pre className="mono error-text">{n.details}</pre>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {body.routes.length ? (
        <section data-testid="drift-routes">
          <h3>
            Route changes ({labels.expected} → {labels.actual})
          </h3>
          <ul className="small">
            {body.routes.map((r) => {
              const req = trace ? routeRequest(body, r, trace.mode) : undefined;
              return (
                <li
                  key={`${r.routeConfig}/${r.virtualHost}/${r.route}/${r.change}/${r.from ?? ''}/${r.to ?? ''}`}
                  data-testid="drift-route"
                >
                  <span className="mono">
                    {r.routeConfig} · {r.virtualHost} · {r.route}
                  </span>{' '}
                  {r.change}
                  {r.detail ? `: ${r.detail}` : ''}
                  {req ? (
                    <>
                      {' '}
                      <button type="button" className="link" data-testid="drift-trace-route" onClick={() => setTraced(req)}>
                        trace on both
                      </button>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {real.length + unmodelled.length ? (
        <section>
          <h3>Differing resources</h3>
          <ul className="drift-resources small" data-testid="drift-resources">
            {[...real, ...unmodelled].map((r) => (
              <ResourceRow key={`${r.type}/${r.name}`} r={r} labels={labels} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
