// A simulation result as an ordered list of hops (listener → filter chain → authorization (RBAC) → route config → virtual host →
// route → cluster(s) → endpoints), each with what was chosen and the candidates rejected there, and where
// the walk stopped. Pure; the HopList component only renders it.
import type { SimulateResponse } from '@/server/api/contract';
import type { Rejection, SimHop, SimTls } from '@/server/simulate/types';
import { gatewayApiRuleOf } from '@/server/model/gatewayapi/provenance';

export interface ClusterShare {
  name: string;
  weight: number;
  /** Probability in percent (weight / sum of weights, Envoy's weighted_clusters). */
  percent: number;
  subset?: string;
}

export interface Hop {
  hop: SimHop | 'endpoints' | 'transport';
  title: string;
  /** What was chosen (absent when the walk stopped before or at this hop). */
  value?: string;
  clusters?: ClusterShare[];
  endpoints?: string[];
  rejected: Rejection[];
  /** The Gateway API rule a route of a generated VirtualService came from (`HTTPRoute ns/name rule n`). */
  from?: string;
  /** The walk stopped here although the hop has a value (a failed TLS handshake, an RBAC deny). */
  stopped?: boolean;
  /** Explanations that belong to this hop (the simulator's note on a TLS-only port). */
  detail?: string[];
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
  transport: 'Transport (mTLS)',
  authorization: 'Authorization (RBAC)',
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

/** `allow — default/reviews-viewer rule 0`, `deny — default/reviews-viewer (no ALLOW policy matches)`. */
export function authorizationLabel(a: SimulateResponse['authorization']): string | undefined {
  if (!a) return undefined;
  const who = a.policy ? ` — ${a.policy}${a.rule !== undefined ? ` rule ${a.rule}` : ''}` : '';
  const why = a.reason && (a.decision === 'deny' || !a.policy) ? ` (${a.reason})` : '';
  return `${a.decision}${who}${why}`;
}

const TRANSPORT: Record<SimTls, string> = { mtls: 'mTLS', tls: 'TLS', plaintext: 'plaintext' };

/**
 * The transport hop: what the client sent and whether the chosen chain took it, as Istio's simulator judges it
 * (pilot/pkg/simulation/traffic.go: ErrTLSError for plaintext to a TLS chain, ErrMTLSError when the chain's
 * requiresMTLS differs from the client being an Istio mTLS client; a plaintext request finding only TLS chains
 * on a STRICT port matches no chain, with the simulator's note saying why).
 */
export function transportHop(r: SimulateResponse, tls: SimTls): Omit<Hop, 'title' | 'rejected'> | undefined {
  if (r.listener === undefined) return undefined;
  const sent = TRANSPORT[tls];
  if (r.error === 'invalid mTLS')
    return {
      hop: 'transport',
      value: `invalid mTLS — ${sent} sent; the chain ${tls === 'mtls' ? 'terminates plain TLS, not Istio mTLS' : 'requires Istio mTLS (a workload certificate and an istio ALPN)'}`,
      stopped: true,
    };
  if (r.error === 'invalid TLS')
    return { hop: 'transport', value: `invalid TLS — ${sent} sent to a chain that terminates TLS`, stopped: true };
  const strict = (r.notes ?? []).filter((n) => /accepts only TLS/.test(n));
  if (r.filterChain === undefined)
    return strict.length
      ? {
          hop: 'transport',
          value: `rejected — ${sent} sent to a port that accepts only ${/STRICT/.test(strict.join()) ? 'mTLS (STRICT)' : 'TLS'}`,
          stopped: true,
          detail: strict,
        }
      : undefined;
  // A plaintext request the chain took says nothing new: no hop (as before the TLS select existed).
  if (tls === 'plaintext') return undefined;
  return { hop: 'transport', value: `${sent}${tls === 'mtls' ? ' (Istio client certificate, istio ALPN)' : ''} — accepted by the chain` };
}

export function traceView(r: SimulateResponse, tls: SimTls = 'plaintext'): TraceView {
  const rejectedAt = (hop: SimHop) => r.rejected.filter((x) => x.hop === hop);
  const hops: Hop[] = [];
  const add = (hop: Hop['hop'], value: string | undefined, extra: Partial<Hop> = {}) =>
    hops.push({
      hop,
      title: TITLES[hop],
      ...(value !== undefined ? { value } : {}),
      rejected: hop === 'endpoints' || hop === 'transport' ? [] : rejectedAt(hop),
      ...extra,
    });
  add('listener', r.listener);
  if (r.listener !== undefined) add('filterChain', r.filterChain);
  const transport = transportHop(r, tls);
  if (transport) hops.push({ ...transport, title: TITLES.transport, rejected: [] });
  // The RBAC filters (AuthorizationPolicies) run once the chain is picked, before any route is chosen.
  if (r.authorization || rejectedAt('authorization').length > 0) add('authorization', authorizationLabel(r.authorization));
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
  // Notes the transport hop already shows are not repeated below the hops.
  const shown = new Set(transport?.detail ?? []);
  const notes = [...(r.notes ?? []).filter((n) => !shown.has(n)), ...(r.dumpErrors ?? []).map((e) => `config dump: ${e}`)];
  return { hops, ...(r.error !== undefined ? { error: r.error } : {}), ...(outcome ? { outcome } : {}), notes };
}
