'use client';
// Detail panels under the tables: a route (its match, split, JSON, the object it came from via
// filter_metadata.istio.config, and the VirtualService http rule as translation recorded it) and a
// cluster (JSON + its DestinationRule).
import type { ReactNode } from 'react';
import { stringify } from 'yaml';
import { useConfigObject, useRouteSource } from '@/components/data/proxyDetailData';
import type { ClusterTableRow, RouteTableRow } from '@/server/envoy/dumpModel/rows';
import { RuleLabel, RuleYaml } from '@/components/common/RouteRule';

interface VsSpecLike {
  http?: unknown[];
}

function SourceObject({ path, proxyId, route }: { path: string; proxyId: string | null; route?: RouteTableRow }) {
  const q = useConfigObject(proxyId ? path : undefined);
  const rs = useRouteSource(proxyId, route ? { routeConfig: route.routeConfig, virtualHost: route.vhost, index: route.index } : undefined);
  if (!proxyId)
    return (
      <p className="muted small">
        Source <code>{path}</code> (source objects are shown for mesh proxies; this dump was uploaded).
      </p>
    );
  if (q.isPending) return <p className="muted">Loading {path}…</p>;
  if (q.error) return <p className="error-text">Could not load the source object: {q.error.message}</p>;
  const res = q.data;
  const obj = res.object as { kind: string; metadata: { name: string; namespace: string }; spec: VsSpecLike };
  const rule = route && obj.kind === 'VirtualService' ? (rs.data ?? undefined) : undefined;
  const where = res.origin.file
    ? `${res.origin.file}${res.origin.doc !== undefined ? ` (document ${res.origin.doc})` : ''}`
    : res.origin.source;
  return (
    <div className="source-object" data-testid="source-object">
      <h4>
        {obj.kind}{' '}
        <span className="mono">
          {obj.metadata.namespace}/{obj.metadata.name}
        </span>
        {rule ? <RuleLabel source={rule} testId="source-rule" /> : null}
      </h4>
      <p className="muted small">from {where}</p>
      {rule ? <RuleYaml source={rule} spec={obj.spec} testId="source-rule-yaml" className="rule" /> : null}
      <details>
        <summary>whole {obj.kind} (YAML)</summary>
        <pre className="mono">{stringify(res.object)}</pre>
      </details>
    </div>
  );
}

/** The frame of a selected row's details: a labelled section with a title and a close button. */
function RowPanel({
  testId,
  what,
  title,
  onClose,
  children,
}: {
  testId: string;
  what: string;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <section className="row-panel" data-testid={testId} aria-label={`Selected ${what}`}>
      <header>
        {title}
        <button type="button" onClick={onClose} aria-label={`Close ${what} details`}>
          ×
        </button>
      </header>
      {children}
    </section>
  );
}

export function RoutePanel({ row, proxyId, onClose }: { row: RouteTableRow; proxyId: string | null; onClose: () => void }) {
  return (
    <RowPanel
      testId="route-panel"
      what="route"
      onClose={onClose}
      title={
        <h3>
          Route #{row.index} {row.name ? <span className="mono">{row.name}</span> : null}
        </h3>
      }
    >
      <dl className="facts">
        <dt>route config</dt>
        <dd className="mono">{row.routeConfig}</dd>
        <dt>virtual host</dt>
        <dd className="mono">{row.vhost}</dd>
        <dt>domains</dt>
        <dd className="mono small">{row.domains}</dd>
        <dt>match</dt>
        <dd className="mono" data-testid="route-match">
          {row.match}
        </dd>
        <dt>to</dt>
        <dd>
          {row.clusters.length ? (
            <ul className="split-list">
              {row.clusters.map((c) => (
                <li key={c.name} className="mono">
                  {c.name} <span className="weight">{c.percent}%</span> <span className="muted">(weight {c.weight})</span>
                </li>
              ))}
            </ul>
          ) : (
            row.action
          )}
        </dd>
        {row.details ? (
          <>
            <dt>details</dt>
            <dd>{row.details}</dd>
          </>
        ) : null}
      </dl>
      {row.source ? (
        <SourceObject path={row.source} proxyId={proxyId} route={row} />
      ) : (
        <p className="muted">No provenance metadata: this route was not generated from a VirtualService (a default or catch-all route).</p>
      )}
      <details>
        <summary>route JSON</summary>
        <pre className="mono">{JSON.stringify(row.raw, null, 2)}</pre>
      </details>
    </RowPanel>
  );
}

export function ClusterPanel({ row, proxyId, onClose }: { row: ClusterTableRow; proxyId: string | null; onClose: () => void }) {
  return (
    <RowPanel testId="cluster-panel" what="cluster" onClose={onClose} title={<h3 className="mono">{row.name}</h3>}>
      {row.source ? <SourceObject path={row.source} proxyId={proxyId} /> : null}
      <details open>
        <summary>cluster JSON</summary>
        <pre className="mono">{JSON.stringify(row.raw, null, 2)}</pre>
      </details>
    </RowPanel>
  );
}
