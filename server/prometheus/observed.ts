// Observed requests per (source workload, destination service, DestinationRule subset), from Kiali's
// outgoing query (source telemetry), and their place on the config-derived overview graph
// (`/api/graph?traffic=1`, issue #23 §1):
// - every route / default edge of a proxy gets `observed` for its workload, service and subset (the pods of
//   one workload report once per workload: each of its proxies' edges carries the workload's figures);
//   a configured path with no traffic gets `{requestsPerSecond: 0, percent: 0, errorPercent: 0}`;
// - requests no workload answered (destination_workload `unknown`: a fault abort, no healthy upstream) went
//   through a configured route all the same: they are counted on the workload's edges to that service of
//   the rule carrying a fault (else its catch-all rule, else every rule), in the rule's configured
//   proportions (equal shares when it has none), so an abort shows as errors on the route it is written on;
// - `percent` is Kiali's edge-percentage rule: the edge's requests over its source's outgoing requests
//   (the source workload's, summed over every destination), `errorPercent` Kiali's error share;
// - observed traffic no configured edge carries becomes an extra edge `unconfigured: true` from the
//   workload's first proxy (or its workload node) to the service.
// Pure apart from observedTraffic(), which runs the query.
import type { MeshEdge, MeshGraph } from '../meshGraph/graph';
import { resolveShortname } from '../model/host';
import type { MeshSnapshot } from '../model/mesh';
import type { Sample } from './client';
import { outgoingQuery } from './queries';
import type { PrometheusSource } from './source';
import { isErrorCode, responseCodeOf, round, type SubsetSpec, subsetOf } from './traffic';

export interface ObservedEdge {
  sourceWorkload: string;
  sourceNamespace: string;
  /** destination_service (the FQDN the caller asked for). */
  host: string;
  /** The DestinationRule subset the answering workload belongs to ("" when none, or no workload answered). */
  subset: string;
  version: string;
  /** destination_workload (`unknown`: no workload answered: a fault abort, no healthy upstream). */
  workload: string;
  requestsPerSecond: number;
  errorRequestsPerSecond: number;
}

export interface Observed {
  requestsPerSecond: number;
  percent: number;
  errorPercent: number;
}

export type ObservedMeshEdge = MeshEdge & { observed?: Observed; unconfigured?: boolean };

/** Groups Kiali's outgoing-query samples by source workload, service and subset. */
export function observedEdges(
  samples: readonly Sample[],
  snap: Pick<MeshSnapshot, 'pods' | 'destinationRules'>,
  domainSuffix: string,
): ObservedEdge[] {
  const subsetsByHost = new Map<string, SubsetSpec[]>();
  const subsetsOf = (host: string): SubsetSpec[] => {
    let s = subsetsByHost.get(host);
    if (!s) {
      const dr = snap.destinationRules.find((d) => resolveShortname(d.spec.host, d.meta.namespace, domainSuffix) === host);
      s = (dr?.spec.subsets ?? []).map((x) => ({ name: x.name, labels: { ...(x.labels ?? {}) } }));
      subsetsByHost.set(host, s);
    }
    return s;
  };
  const out = new Map<string, ObservedEdge>();
  for (const { metric: m, value } of samples) {
    const host = m.destination_service ?? 'unknown';
    const workload = m.destination_workload ?? 'unknown';
    const subset =
      workload === 'unknown'
        ? ''
        : subsetOf(subsetsOf(host), snap.pods, {
            workload,
            namespace: m.destination_workload_namespace ?? '',
            version: m.destination_version ?? '',
            canonicalService: m.destination_canonical_service ?? '',
          });
    const k = [m.source_workload, m.source_workload_namespace, host, subset, workload].join('|');
    const e = out.get(k) ?? {
      sourceWorkload: m.source_workload ?? 'unknown',
      sourceNamespace: m.source_workload_namespace ?? 'unknown',
      host,
      subset,
      version: m.destination_version ?? m.destination_canonical_revision ?? '',
      workload,
      requestsPerSecond: 0,
      errorRequestsPerSecond: 0,
    };
    e.requestsPerSecond += value;
    if (isErrorCode(m.request_protocol ?? '', responseCodeOf(m))) e.errorRequestsPerSecond += value;
    out.set(k, e);
  }
  return [...out.values()];
}

/** Runs Kiali's outgoing query over the last `windowSeconds` (throws PrometheusError). */
export async function observedTraffic(
  prom: PrometheusSource,
  snap: MeshSnapshot,
  windowSeconds: number,
  domainSuffix: string,
): Promise<{ query: string; edges: ObservedEdge[] }> {
  const query = outgoingQuery(windowSeconds);
  return { query, edges: observedEdges(await prom.query(query), snap, domainSuffix) };
}

/** The graph with `observed` on its route / default edges and `unconfigured` extra edges. */
export function attachObserved(
  graph: MeshGraph,
  snap: Pick<MeshSnapshot, 'pods'>,
  observed: readonly ObservedEdge[],
): Omit<MeshGraph, 'edges'> & { edges: ObservedMeshEdge[] } {
  const hostOf = new Map(graph.nodes.filter((n) => n.kind === 'service' && n.hostname).map((n) => [n.id, n.hostname!]));
  const serviceNode = new Map([...hostOf].map(([id, h]) => [h, id]));
  const podWorkload = new Map(snap.pods.map((p) => [`proxy:${p.name}.${p.namespace}`, `${p.owner?.name ?? p.name}|${p.namespace}`]));
  const key = (w: string, host: string, subset: string) => `${w}|${host}|${subset}`;
  const byKey = new Map<string, { rps: number; err: number }>();
  const outgoing = new Map<string, number>();
  const add = (k: string, rps: number, err: number) => {
    const cur = byKey.get(k) ?? { rps: 0, err: 0 };
    cur.rps += rps;
    cur.err += err;
    byKey.set(k, cur);
  };
  // The configured edges of each (source workload, service), for requests no workload answered.
  const configured = new Map<string, MeshEdge[]>();
  for (const e of graph.edges) {
    if ((e.kind !== 'route' && e.kind !== 'default') || !e.source.startsWith('proxy:')) continue;
    const w = podWorkload.get(e.source);
    const host = hostOf.get(e.target);
    if (!w || !host) continue;
    configured.set(`${w}|${host}`, [...(configured.get(`${w}|${host}`) ?? []), e]);
  }
  for (const o of observed) {
    const w = `${o.sourceWorkload}|${o.sourceNamespace}`;
    outgoing.set(w, (outgoing.get(w) ?? 0) + o.requestsPerSecond);
    const all = o.workload === 'unknown' ? configured.get(`${w}|${o.host}`) : undefined;
    if (!all?.length) {
      add(key(w, o.host, o.subset), o.requestsPerSecond, o.errorRequestsPerSecond);
      continue;
    }
    const own = all.filter((e) => e.source === all[0]!.source);
    const rule = (own.find((e) => e.fault) ?? own.find((e) => e.match === 'any') ?? own[0])!.rule;
    const shares = new Map<string, number>();
    for (const e of own.filter((x) => x.rule === rule)) shares.set(e.subset ?? '', (shares.get(e.subset ?? '') ?? 0) + (e.percent ?? 0));
    const sum = [...shares.values()].reduce((a, b) => a + b, 0);
    for (const [subset, p] of shares) {
      const f = sum > 0 ? p / sum : 1 / shares.size;
      if (f > 0) add(key(w, o.host, subset), o.requestsPerSecond * f, o.errorRequestsPerSecond * f);
    }
  }
  const figures = (w: string, k: string): Observed => {
    const f = byKey.get(k);
    if (!f || f.rps <= 0) return { requestsPerSecond: 0, percent: 0, errorPercent: 0 };
    const total = outgoing.get(w) ?? 0;
    return {
      requestsPerSecond: round(f.rps, 3),
      percent: total > 0 ? round((100 * f.rps) / total, 1) : 0,
      errorPercent: round((100 * f.err) / f.rps, 1),
    };
  };
  const carried = new Set<string>();
  const edges: ObservedMeshEdge[] = graph.edges.map((e) => {
    if ((e.kind !== 'route' && e.kind !== 'default') || !e.source.startsWith('proxy:')) return e;
    const w = podWorkload.get(e.source);
    const host = hostOf.get(e.target);
    if (!w || !host) return e;
    const k = key(w, host, e.subset ?? '');
    carried.add(k);
    return { ...e, observed: figures(w, k) };
  });
  // Traffic no configured edge carries.
  const firstProxy = new Map<string, string>();
  for (const [proxy, w] of [...podWorkload].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (graph.nodes.some((n) => n.id === proxy) && !firstProxy.has(w)) firstProxy.set(w, proxy);
  for (const [k, f] of byKey) {
    if (carried.has(k) || f.rps <= 0) continue;
    const [workload, ns, host, subset] = k.split('|') as [string, string, string, string];
    const target = serviceNode.get(host);
    const source =
      firstProxy.get(`${workload}|${ns}`) ??
      graph.nodes.find((n) => n.kind === 'workload' && n.namespace === ns && n.label === workload)?.id;
    if (!target || !source) continue;
    edges.push({
      id: `observed:${source}->${target}:${subset}`,
      kind: 'route',
      source,
      target,
      label: `observed${subset ? ` → ${subset}` : ''}`,
      ...(subset ? { subset } : {}),
      unconfigured: true,
      observed: figures(`${workload}|${ns}`, k),
    });
  }
  return { ...graph, edges };
}
