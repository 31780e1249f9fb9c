// Request checks and routing contracts, run through the simulator (pipeline/simulateProxy: the proxy's
// generated config walked as Envoy would) on live and on the draft. A weighted destination is reported as
// its distribution (cluster → percent).
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import type { ResourceCache } from '../pipeline/proxyResources';
import { simulateProxy } from '../simulateMesh/simulateProxy';
import type { SimRequest, SimResult } from '../simulate/types';
import type { CheckOutcome, ContractResult, RequestCheck, RequestCheckResult, RoutingContract } from './types';

export interface CheckContext {
  snapshot: MeshSnapshot;
  options: TranslateOptions;
  cache?: ResourceCache;
}

/** `x` as a percent with at most two decimals. */
const pct = (x: number): number => Math.round(x * 10_000) / 100;

/** Where a simulated request goes, as cluster → percent. Undefined when it goes to no cluster. */
export function distributionOf(r: SimResult): Record<string, number> | undefined {
  if (r.error) return undefined;
  if (r.weightedClusters) {
    const total = Object.values(r.weightedClusters).reduce((s, w) => s + w, 0);
    if (total <= 0) return undefined;
    const out: Record<string, number> = {};
    for (const [c, w] of Object.entries(r.weightedClusters)) out[c] = pct(w / total);
    return out;
  }
  return r.cluster ? { [r.cluster]: 100 } : undefined;
}

/**
 * The proxy a check names: its exact id (`POD.NAMESPACE`), else the first proxy (by id) whose id starts with
 * it — so a contract can say `productpage-v1` and survive pod hash changes. Under the ambient profile an
 * ambient pod (`POD.NAMESPACE`, no proxy of its own) is a source too: its request is walked through ztunnel and
 * its destination's waypoint (simulateMesh/ambient), as `simulate --proxy AMBIENT_POD.NS` does.
 */
export function resolveProxy(snapshot: MeshSnapshot, proxy: string): string | undefined {
  if (snapshot.proxiesById.has(proxy)) return proxy;
  const byPrefix = snapshot.proxies.find((p) => p.id.startsWith(proxy))?.id;
  if (byPrefix || !snapshot.ambient) return byPrefix;
  const ambient = snapshot.pods
    .filter((p) => snapshot.ambient?.workloads.get(`${p.namespace}/${p.name}`)?.ambient)
    .map((p) => `${p.name}.${p.namespace}`)
    .sort();
  return ambient.find((id) => id === proxy) ?? ambient.find((id) => id.startsWith(proxy));
}

export function runCheck(ctx: CheckContext, proxy: string, request: SimRequest): CheckOutcome {
  const id = resolveProxy(ctx.snapshot, proxy);
  const result = id
    ? simulateProxy(ctx.snapshot, id, request, { options: ctx.options, ...(ctx.cache ? { cache: ctx.cache } : {}) })
    : undefined;
  if (!result) {
    const error = `proxy "${proxy}" not found`;
    return { result: { rejected: [], error }, error };
  }
  const distribution = distributionOf(result);
  return { result, ...(distribution ? { distribution } : {}), ...(result.error ? { error: result.error } : {}) };
}

/** Whether the request goes through a waypoint (which, or why not): part of the outcome under the ambient profile. */
const waypointOf = (o: CheckOutcome) => {
  const w = o.result.ambient?.waypoint;
  return w ? [w.used, w.name, w.reason] : undefined;
};

const sameOutcome = (a: CheckOutcome, b: CheckOutcome): boolean =>
  JSON.stringify([a.distribution, a.error, a.result.redirect, a.result.directResponse, waypointOf(a)]) ===
  JSON.stringify([b.distribution, b.error, b.result.redirect, b.result.directResponse, waypointOf(b)]);

export function runChecks(live: CheckContext, draft: CheckContext, checks: readonly RequestCheck[]): RequestCheckResult[] {
  return checks.map((check) => {
    const l = runCheck(live, check.proxy, check.request);
    const d = runCheck(draft, check.proxy, check.request);
    return { check, live: l, draft: d, changed: !sameOutcome(l, d) };
  });
}

/** Does `cluster` (an Istio outbound cluster name) belong to `host` (short or full name), subset and port? */
function clusterOf(cluster: string, host: string, subset?: string, port?: number): boolean {
  const parts = cluster.split('|');
  if (parts.length !== 4) return false;
  const [, p, s, h] = parts as [string, string, string, string];
  if (h !== host && !h.startsWith(`${host}.`)) return false;
  if (subset !== undefined && s !== subset) return false;
  return port === undefined || Number(p) === port;
}

export function judgeContract(contract: RoutingContract, outcome: CheckOutcome): ContractResult {
  const e = contract.expect;
  const dist = outcome.distribution ?? {};
  const seen = outcome.error ? `error "${outcome.error}"` : Object.keys(dist).length ? describeDist(dist) : 'no cluster';
  const res = (pass: boolean, why: string): ContractResult => ({
    contract,
    pass,
    detail: pass ? `ok: ${seen}` : `${why}; got ${seen}`,
    outcome,
  });
  if ('error' in e) return res(outcome.error?.includes(e.error) === true, `expected error "${e.error}"`);
  if (outcome.error) return res(false, 'expected a destination');
  if ('host' in e) {
    const share = Object.entries(dist).reduce((s, [c, p]) => s + (clusterOf(c, e.host, e.subset, e.port) ? p : 0), 0);
    const want = `${e.host}${e.subset ? ` subset ${e.subset}` : ''}${e.port ? ` port ${e.port}` : ''}`;
    return res(share >= 99.99, `expected all traffic to ${want} (${pct(share / 100)}% went there)`);
  }
  const share = dist[e.cluster] ?? 0;
  const min = 'minPercent' in e ? e.minPercent : undefined;
  const max = 'maxPercent' in e ? e.maxPercent : undefined;
  if (min === undefined && max === undefined) return res(share >= 99.99, `expected all traffic to ${e.cluster}`);
  const ok = share >= (min ?? 0) && share <= (max ?? 100);
  return res(ok, `expected ${min ?? 0}–${max ?? 100}% to ${e.cluster} (${share}% went there)`);
}

const describeDist = (d: Record<string, number>) =>
  Object.entries(d)
    .map(([c, p]) => `${c} ${p}%`)
    .join(', ');

export function runContracts(ctx: CheckContext, contracts: readonly RoutingContract[]): ContractResult[] {
  return contracts.map((c) => judgeContract(c, runCheck(ctx, c.proxy, c.request)));
}
