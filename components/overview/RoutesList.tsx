// The routed edges of the (filtered) graph as a table: the same facts as the picture, readable and
// keyboard-accessible. Edges differing only by source proxy are grouped.
import Link from 'next/link';
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import type { MergedEdgeFields } from '@/server/meshGraph/graphType';
import { proxyHref } from '@/components/graph/elements';
import { configPathFor, sandboxLoadHref } from '@/components/sandbox/model/urlState';

export interface RouteRow {
  key: string;
  virtualService: string;
  rule: string;
  match: string;
  kind: MeshEdge['kind'];
  target: string;
  subset?: string;
  percent?: number;
  split: boolean;
  fault: boolean;
  /** Proxies the rule applies from (linked); for a merged graph type, the nodes standing for one proxy. */
  proxies: string[];
  /** Merged graph types: the other source nodes (a workload of several pods, an app, a service), by label. */
  sources: string[];
}

/** "Load into sandbox" for a `namespace/name` VirtualService. */
function LoadVs({ vs }: { vs: string }) {
  const [ns, name] = vs.split('/');
  if (!ns || !name) return null;
  return (
    <Link className="small" href={sandboxLoadHref(configPathFor('VirtualService', ns, name))} data-testid="load-into-sandbox">
      Load into sandbox
    </Link>
  );
}

/** A merged edge (graph types) as the per-proxy edges of its configured routes. */
const unmerged = (e: MeshEdge & MergedEdgeFields): MeshEdge[] =>
  e.routes ? e.routes.map((r) => ({ ...e, ...r, split: !!r.split, fault: !!r.fault })) : [e];

/** Groups route/mirror edges by (VS, rule, destination, subset, share); sources become a list. Pure. */
export function routeRows(edges: readonly (MeshEdge & MergedEdgeFields)[], nodes: readonly MeshNode[]): RouteRow[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const rows = new Map<string, RouteRow>();
  for (const e of edges.flatMap(unmerged)) {
    if (e.kind !== 'route' && e.kind !== 'mirror') continue;
    const key = [e.kind, e.virtualService, e.rule, e.target, e.subset ?? '', e.percent ?? '', e.match ?? ''].join('|');
    const node = byId.get(e.source);
    const proxy = node?.proxyId;
    const label = node?.kind === 'proxy' || !node ? e.source : (node.hostname ?? node.label);
    const row = rows.get(key);
    if (row) {
      if (proxy && !row.proxies.includes(proxy)) row.proxies.push(proxy);
      if (!proxy && !row.sources.includes(label)) row.sources.push(label);
      continue;
    }
    const r: RouteRow = {
      key,
      virtualService: e.virtualService ?? '',
      rule: e.rule ?? '',
      match: e.match ?? '',
      kind: e.kind,
      target: byId.get(e.target)?.hostname ?? e.target,
      split: !!e.split,
      fault: !!e.fault,
      proxies: proxy ? [proxy] : [],
      sources: proxy ? [] : [label],
    };
    if (e.subset) r.subset = e.subset;
    if (e.percent !== undefined) r.percent = e.percent;
    rows.set(key, r);
  }
  return [...rows.values()];
}

export function RoutesList({ rows }: { rows: readonly RouteRow[] }) {
  if (rows.length === 0)
    return (
      <p className="muted">
        No VirtualService routes in view: traffic follows the default routes (one per service). Add a VirtualService to see routing rules
        here.
      </p>
    );
  return (
    <table className="table" data-testid="routes-list">
      <thead>
        <tr>
          <th>VirtualService rule</th>
          <th>match</th>
          <th>destination</th>
          <th>subset</th>
          <th className="num">share</th>
          <th>from</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td className="mono">
              {r.virtualService} {r.rule}
              {r.kind === 'mirror' ? <span className="badge warn">mirror</span> : null}
              {r.fault ? <span className="badge warn">fault</span> : null} <LoadVs vs={r.virtualService} />
            </td>
            <td className="mono">{r.match}</td>
            <td className="mono">{r.target}</td>
            <td className="mono">{r.subset ?? '—'}</td>
            <td className="num">{r.kind === 'mirror' ? 'copy' : r.split ? <span className="weight">{r.percent}%</span> : '100%'}</td>
            <td className="mono small">
              {r.proxies.slice(0, 4).map((p, i) => (
                <span key={p}>
                  {i > 0 ? ', ' : ''}
                  <Link href={proxyHref(p)}>{p}</Link>
                </span>
              ))}
              {r.proxies.length > 4 ? <span className="muted"> +{r.proxies.length - 4} more</span> : null}
              {r.sources.slice(0, 4).map((s, i) => (
                <span key={s}>
                  {i > 0 || r.proxies.length > 0 ? ', ' : ''}
                  {s}
                </span>
              ))}
              {r.sources.length > 4 ? <span className="muted"> +{r.sources.length - 4} more</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
