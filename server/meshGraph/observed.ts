// Observed traffic (Prometheus, #23 §1) on the config-derived per-proxy graph: each route edge gets
// `observed` {requestsPerSecond, percent, errorPercent} for its (source workload, destination service,
// subset); a configured path with no traffic gets zeros; traffic with no configured path becomes an extra
// edge `unconfigured: true` from the source workload (its first proxy, in the per-proxy graph). `percent` is Kiali's edge percentage: the edge's share
// of its source workload's outgoing requests. The graph types (graphType.ts) merge these per workload.
// Pure.
import type { MeshEdge, MeshGraph, MeshNode } from './graph';
import type { Observed } from './graphType';

/** One observed (source workload, destination service, subset) row, as the Prometheus side answers it. */
export interface ObservedRow {
  sourceWorkload: string;
  sourceNamespace: string;
  host: string;
  /** The DestinationRule subset the destination pods belong to ('' when none). */
  subset: string;
  requestsPerSecond: number;
  errorRequestsPerSecond: number;
}

export type ObservedEdge = MeshEdge & { observed: Observed; unconfigured?: true };

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const key = (ns: string, workload: string, host: string, subset: string) => `${ns}\u0000${workload}\u0000${host}\u0000${subset}`;

export function annotateObserved(g: MeshGraph, rows: readonly ObservedRow[]): MeshGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const workloadOf = (id: string): MeshNode | undefined => {
    const n = byId.get(id);
    if (n?.kind === 'workload') return n;
    const p = n?.parent ? byId.get(n.parent) : undefined;
    return p?.kind === 'workload' ? p : undefined;
  };
  // The first proxy (or pod) of each workload: where an unconfigured edge starts in the per-proxy graph.
  const firstMember = new Map<string, string>();
  for (const n of g.nodes)
    if ((n.kind === 'proxy' || n.kind === 'pod') && n.parent && !firstMember.has(n.parent)) firstMember.set(n.parent, n.id);
  const workloadByName = new Map<string, MeshNode>();
  for (const n of g.nodes) if (n.kind === 'workload') workloadByName.set(`${n.namespace}\u0000${n.label}`, n);
  const serviceByHost = new Map<string, MeshNode>();
  for (const n of g.nodes) if (n.kind === 'service' && n.hostname && !serviceByHost.has(n.hostname)) serviceByHost.set(n.hostname, n);

  const observed = new Map<string, ObservedRow>();
  const outgoing = new Map<string, number>(); // ns/workload → requests/s
  for (const r of rows) {
    const k = key(r.sourceNamespace, r.sourceWorkload, r.host, r.subset);
    const seen = observed.get(k);
    observed.set(
      k,
      seen
        ? {
            ...seen,
            requestsPerSecond: seen.requestsPerSecond + r.requestsPerSecond,
            errorRequestsPerSecond: seen.errorRequestsPerSecond + r.errorRequestsPerSecond,
          }
        : { ...r },
    );
    const w = `${r.sourceNamespace}\u0000${r.sourceWorkload}`;
    outgoing.set(w, (outgoing.get(w) ?? 0) + r.requestsPerSecond);
  }
  const toObserved = (r: ObservedRow | undefined): Observed => {
    if (!r || r.requestsPerSecond <= 0) return { requestsPerSecond: 0, percent: 0, errorPercent: 0 };
    const total = outgoing.get(`${r.sourceNamespace}\u0000${r.sourceWorkload}`) ?? 0;
    return {
      requestsPerSecond: round2(r.requestsPerSecond),
      percent: total > 0 ? round1((100 * r.requestsPerSecond) / total) : 0,
      errorPercent: round1((100 * r.errorRequestsPerSecond) / r.requestsPerSecond),
    };
  };

  const used = new Set<string>();
  const edges: MeshEdge[] = g.edges.map((e) => {
    if (e.kind !== 'route') return e;
    const w = workloadOf(e.source);
    const host = byId.get(e.target)?.hostname;
    if (!w || !host) return e;
    const k = key(w.namespace, w.label, host, e.subset ?? '');
    used.add(k);
    return { ...e, observed: toObserved(observed.get(k)) } as ObservedEdge;
  });
  for (const [k, r] of observed) {
    if (used.has(k) || r.requestsPerSecond <= 0) continue;
    const w = workloadByName.get(`${r.sourceNamespace}\u0000${r.sourceWorkload}`);
    const svc = serviceByHost.get(r.host);
    if (!w || !svc) continue; // a peer outside the registry (unknown source, an external host): nothing to draw it between
    const edge: ObservedEdge = {
      id: `unconfigured:${w.id}->${svc.id}:${r.subset}`,
      kind: 'route',
      source: firstMember.get(w.id) ?? w.id,
      target: svc.id,
      label: `traffic with no configured route${r.subset ? ` → ${r.subset}` : ''}`,
      ...(r.subset ? { subset: r.subset } : {}),
      observed: toObserved(r),
      unconfigured: true,
    };
    edges.push(edge);
  }
  return { ...g, edges };
}
