'use client';
// The selected node: what it is, why it can never match (shadowed routes), what the traced request did
// there, where it leads, its source Istio object and rule, and its Envoy JSON.
import { PatchLinks } from '@/components/envoyfilter/PatchLink';
import type { PatchRef } from '@/components/envoyfilter/patchMarks';
import { outgoing, routeContext } from './model/details';
import type { GraphNode, RouteGraph } from './model/types';
import { SourceRule } from './SourceRule';

const KIND_NAME: Record<GraphNode['kind'], string> = {
  listener: 'Listener',
  routeConfig: 'Route configuration',
  virtualHost: 'Virtual host',
  route: 'Route',
  cluster: 'Cluster',
  endpoint: 'Endpoint',
  more: 'More endpoints',
};

export interface NodeDetailsProps {
  graph: RouteGraph;
  node: GraphNode;
  proxyId: string | null;
  /** What the traced request did here, if anything. */
  trace?: { onPath: boolean; rejected?: string };
  /** EnvoyFilter patches that changed this resource. */
  patches?: readonly PatchRef[];
  onSelect: (id: string) => void;
  onClose: () => void;
}

export function NodeDetails({ graph, node, proxyId, trace, patches, onSelect, onClose }: NodeDetailsProps) {
  const out = outgoing(graph, node.id);
  const rc = routeContext(graph, node);
  return (
    <section className="rg-details" data-testid="graph-node-details" data-node-id={node.id} aria-label="Selected node">
      <header>
        <h3>
          {KIND_NAME[node.kind]} <span className="mono">{node.label.replace('\n', '')}</span>
        </h3>
        <button type="button" onClick={onClose} aria-label="Close node details">
          ×
        </button>
      </header>
      <div className="rg-details-body">
        <div>
          {node.detail ? <p className="mono small">{node.detail}</p> : null}
          {node.shadowed ? (
            <p className="rg-shadowed" data-testid="graph-shadowed-reason">
              ⚠ {node.shadowed.reason}.{' '}
              <button
                type="button"
                className="link"
                onClick={() => node.virtualHostId && onSelect(node.id.replace(/\/\d+$/, `/${node.shadowed?.by ?? 0}`))}
              >
                show route #{node.shadowed.by}
              </button>
            </p>
          ) : null}
          {node.missing ? <p className="error-text small">Referenced but not in this config.</p> : null}
          {patches?.length ? (
            <div className="small" data-testid="graph-node-patches">
              Changed by: <PatchLinks refs={patches} />
              <ul className="mono">
                {patches
                  .flatMap((p) => p.where)
                  .map((w) => (
                    <li key={w}>{w}</li>
                  ))}
              </ul>
            </div>
          ) : null}
          {trace?.onPath ? <p className="rg-onpath small">On the traced request&apos;s path.</p> : null}
          {trace?.rejected ? <p className="error-text small">Passed over by the traced request: {trace.rejected}</p> : null}
          {out.length ? (
            <ul className="rg-out">
              {out.slice(0, 30).map((o) => (
                <li key={o.target}>
                  →{' '}
                  <button type="button" className="link mono" onClick={() => onSelect(o.target)}>
                    {o.label}
                  </button>
                  {o.percent !== undefined ? <span className="weight"> {o.percent}%</span> : null}
                </li>
              ))}
              {out.length > 30 ? <li className="muted">… {out.length - 30} more</li> : null}
            </ul>
          ) : null}
          {node.sourcePath ? (
            <SourceRule
              proxyId={proxyId}
              path={node.sourcePath}
              {...(node.source ? { source: node.source } : {})}
              {...(rc ? { route: rc } : {})}
            />
          ) : node.kind === 'route' ? (
            <p className="muted small">No provenance metadata: not generated from a VirtualService (a default or catch-all route).</p>
          ) : null}
        </div>
        {node.json !== undefined ? (
          <details open>
            <summary>Envoy JSON</summary>
            <pre className="mono rg-json" data-testid="graph-node-json">
              {JSON.stringify(node.json, null, 2)}
            </pre>
          </details>
        ) : null}
      </div>
    </section>
  );
}
