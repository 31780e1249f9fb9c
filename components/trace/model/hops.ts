// A simulation result as an ordered list of hops (listener → filter chain → route config → virtual host →
// route → cluster(s) → endpoints), each with what was chosen and the candidates rejected there, and where
// the walk stopped. Pure; the HopList component only renders it.
import type { SimulateResponse } from '@/server/api/contract';
import type { Rejection, SimHop } from '@/server/simulate/types';
import { gatewayApiRuleOf } from '@/server/model/gatewayapi/provenance';

export interface ClusterShare {
  name: string;
  weight: number;
  /** Probability in percent (weight / sum of weights, Envoy's weighted_clusters). */
  percent: number;
  subset?: string;
}

export interface Hop {
  hop: SimHop | 'endpoints';
  title: string;
  /** What was chosen (absent when the walk stopped before or at this hop). */
  value?: string;
  clusters?: ClusterShare[];
  endpoints?: string[];
  rejected: Rejection[];
  /** The Gateway API rule a route of a generated VirtualService came from (`HTTPRoute ns/name rule n`). */
  from?: string;
}

export interface TraceView {
  hops: Hop[];
  /** Istio's simulator wording when the request goes nowhere. */
  error?: string;
  outcome?: string;
  notes: string[];
}

const TITLES: Record<Hop['hop'], string> = {
  listener: 'Listener',
  filterChain: 'Filter chain',
  routeConfig: 'Route configuration',
  virtualHost: 'Virtual host',
  route: 'Route',
  cluster: 'Cluster',
  endpoints: 'Endpoints',
};

export const subsetOf = (cluster: string): string | undefined => {
  const parts = cluster.split('|');
  return parts.length === 4 && parts[2] ? parts[2] : undefined;
};

export function clusterShares(r: Pick<SimulateResponse, 'cluster' | 'weightedClusters'>): ClusterShare[] {
  const withSubset = (c: Omit<ClusterShare, 'subset'>): ClusterShare => {
    const subset = subsetOf(c.name);
    return subset ? { ...c, subset } : c;
  };
  if (r.cluster !== undefined) return [withSubset({ name: r.cluster, weight: 1, percent: 100 })];
  const list = Object.entries(r.weightedClusters ?? {});
  const total = list.reduce((s, [, w]) => s + w, 0);
  return list.map(([name, weight]) => withSubset({ name, weight, percent: total > 0 ? Math.round((weight / total) * 10000) / 100 : 0 }));
}

export function traceView(r: SimulateResponse): TraceView {
  const rejectedAt = (hop: SimHop) => r.rejected.filter((x) => x.hop === hop);
  const hops: Hop[] = [];
  const add = (hop: Hop['hop'], value: string | undefined, extra: Partial<Hop> = {}) =>
    hops.push({
      hop,
      title: TITLES[hop],
      ...(value !== undefined ? { value } : {}),
      rejected: hop === 'endpoints' ? [] : rejectedAt(hop),
      ...extra,
    });
  add('listener', r.listener);
  if (r.listener !== undefined) add('filterChain', r.filterChain);
  const http =
    r.routeConfig !== undefined ||
    r.virtualHost !== undefined ||
    rejectedAt('virtualHost').length > 0 ||
    rejectedAt('routeConfig').length > 0;
  if (http) {
    add('routeConfig', r.routeConfig);
    if (r.routeConfig !== undefined) add('virtualHost', r.virtualHost);
    if (r.virtualHost !== undefined) {
      const rule = gatewayApiRuleOf(r.source?.name, r.route);
      const from = rule ? `Gateway API route ${rule.namespace}/${rule.name}, rule ${rule.rule}` : undefined;
      add('route', r.routeIndex !== undefined ? `#${r.routeIndex}${r.route ? ` ${r.route}` : ''}` : r.route, from ? { from } : {});
    }
  }
  const clusters = clusterShares(r);
  if (clusters.length) {
    add('cluster', clusters.length === 1 ? clusters[0]?.name : `${clusters.length} weighted clusters`, { clusters });
    add('endpoints', r.endpoints?.length ? `${r.endpoints.length}` : undefined, { endpoints: r.endpoints ?? [] });
  }
  // Drop trailing hops the walk never reached (no value, nothing rejected), except the one it stopped at.
  while (hops.length > 1) {
    const last = hops[hops.length - 1] as Hop;
    const prev = hops[hops.length - 2] as Hop;
    if (last.value === undefined && last.rejected.length === 0 && prev.value === undefined) hops.pop();
    else break;
  }
  let outcome: string | undefined;
  if (r.redirect) outcome = `redirect ${r.redirect.status} → ${r.redirect.location}`;
  else if (r.directResponse)
    outcome = `direct response ${r.directResponse.status}${r.directResponse.body ? `: ${r.directResponse.body}` : ''}`;
  else if (r.runtimeFraction !== undefined)
    outcome = `the route matches ${Math.round(r.runtimeFraction * 10000) / 100}% of such requests (runtime_fraction)`;
  const notes = [...(r.notes ?? []), ...(r.dumpErrors ?? []).map((e) => `config dump: ${e}`)];
  return { hops, ...(r.error !== undefined ? { error: r.error } : {}), ...(outcome ? { outcome } : {}), notes };
}
