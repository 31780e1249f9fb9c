// Semantic diff of one RouteConfiguration (as translated: proto3 JSON, camelCase), live → draft: virtual hosts added /
// removed; per virtual host, routes added / removed / moved / changed, with weights old → new. A route is
// identified by its name and match (Envoy picks the first route whose match matches, so the match is the
// route's identity; the action is what may change). What changed inside a route is listed from a
// structural diff (microdiff), not by hand.
import diff from 'microdiff';
import { type RouteSourceLookup, routeSources } from './provenance';
import type { RouteChange } from './types';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

export interface RouteConfigDiff {
  virtualHosts: { change: 'added' | 'removed'; routeConfig: string; virtualHost: string }[];
  routes: RouteChange[];
  summary: string[];
}

/** cluster → weight of a route action (a single cluster is 100). Undefined for redirects / direct responses. */
export function weightsOf(route: Json): Record<string, number> | undefined {
  const action = obj(route.route);
  if (typeof action.cluster === 'string') return { [action.cluster]: 100 };
  const wc = arr(obj(action.weightedClusters).clusters);
  if (wc.length === 0) return undefined;
  const out: Record<string, number> = {};
  for (const c of wc) out[String(c.name)] = Number(c.weight ?? 0);
  return out;
}

/** `outbound|9080|v1|reviews.default.svc.cluster.local` → `v1` (the subset), else the host. */
export function clusterLabel(name: string): string {
  const parts = name.split('|');
  if (parts.length === 4) return parts[2] || parts[3] || name;
  return name;
}

/** `v1 80/v2 20`; a single cluster is its label alone unless `withPercent` (beside a split). */
export function formatWeights(w: Record<string, number> | undefined, withPercent = false): string {
  if (!w) return 'no cluster';
  const entries = Object.entries(w);
  if (entries.length === 1 && !withPercent) return clusterLabel(entries[0]![0]);
  return entries.map(([c, n]) => `${clusterLabel(c)} ${n}`).join('/');
}

/** A short human name of a route: its name, else its match. */
export function routeLabel(route: Json): string {
  if (typeof route.name === 'string' && route.name !== '') return route.name;
  const m = obj(route.match);
  const parts: string[] = [];
  for (const k of ['prefix', 'path', 'safeRegex', 'pathSeparatedPrefix']) {
    const v = m[k];
    if (v !== undefined) parts.push(k === 'safeRegex' ? `regex ${String(obj(v).regex)}` : `${k} ${String(v)}`);
  }
  for (const h of arr(m.headers)) {
    const sm = obj(h.stringMatch);
    const [op, val] = Object.entries(sm).find(([k]) => k !== 'ignoreCase') ?? ['present', ''];
    parts.push(`header ${String(h.name)} ${op} ${String(typeof val === 'object' ? JSON.stringify(val) : val)}`);
  }
  for (const q of arr(m.queryParameters)) parts.push(`query ${String(q.name)}`);
  return parts.join(', ') || 'any';
}

/** `['route', 'retryPolicy']` → `route.retry_policy` (Envoy's field names, as config_dump prints them). */
export const snakePath = (p: readonly string[]): string => p.map((x) => x.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.');

const identity = (r: Json) => `${typeof r.name === 'string' ? r.name : ''}\u0000${JSON.stringify(r.match ?? {})}`;

/** Pairs routes of two lists by identity, in order (a repeated identity pairs first with first). */
function pairRoutes(before: Json[], after: Json[]): { pairs: [number, number][]; removed: number[]; added: number[] } {
  const queue = new Map<string, number[]>();
  after.forEach((r, i) => {
    const k = identity(r);
    const q = queue.get(k);
    if (q) q.push(i);
    else queue.set(k, [i]);
  });
  const pairs: [number, number][] = [];
  const removed: number[] = [];
  before.forEach((r, i) => {
    const j = queue.get(identity(r))?.shift();
    if (j === undefined) removed.push(i);
    else pairs.push([i, j]);
  });
  const paired = new Set(pairs.map(([, j]) => j));
  const added = after.map((_, j) => j).filter((j) => !paired.has(j));
  return { pairs, removed, added };
}

/** What changed inside a paired route, as short phrases (weights, cluster, timeout, other fields). */
function describeChange(b: Json, a: Json): string[] {
  const out: string[] = [];
  const wb = weightsOf(b);
  const wa = weightsOf(a);
  if (JSON.stringify(wb) !== JSON.stringify(wa)) {
    const multi = Object.keys(wb ?? {}).length > 1 || Object.keys(wa ?? {}).length > 1;
    out.push(`${multi ? 'weights' : 'cluster'} ${formatWeights(wb, multi)} → ${formatWeights(wa, multi)}`);
  }
  const tb = obj(b.route).timeout;
  const ta = obj(a.route).timeout;
  if (tb !== ta) out.push(`timeout ${String(tb ?? 'none')} → ${String(ta ?? 'none')}`);
  const other = new Set<string>();
  const destinationChanged = out.length > 0 && JSON.stringify(wb) !== JSON.stringify(wa);
  for (const d of diff(b, a)) {
    const p = d.path.map(String);
    if (p[0] === 'route' && (p[1] === 'cluster' || p[1] === 'weightedClusters' || p[1] === 'timeout')) continue;
    // Istio derives the decorator's operation from the destination: it follows a destination change.
    if (p[0] === 'decorator' && destinationChanged) continue;
    other.add(snakePath(p.slice(0, 2)));
  }
  if (other.size > 0) out.push(`${[...other].sort().join(', ')} changed`);
  return out;
}

export function diffRouteConfig(
  name: string,
  before: Json | undefined,
  after: Json | undefined,
  sourceBefore: RouteSourceLookup = routeSources(undefined),
  sourceAfter: RouteSourceLookup = routeSources(undefined),
): RouteConfigDiff {
  const out: RouteConfigDiff = { virtualHosts: [], routes: [], summary: [] };
  const vb = new Map(arr(before?.virtualHosts).map((v) => [String(v.name), v]));
  const va = new Map(arr(after?.virtualHosts).map((v) => [String(v.name), v]));
  for (const [vh] of vb)
    if (!va.has(vh)) {
      out.virtualHosts.push({ change: 'removed', routeConfig: name, virtualHost: vh });
      out.summary.push(`loses vhost ${vh} (route config ${name})`);
    }
  for (const [vh] of va)
    if (!vb.has(vh)) {
      out.virtualHosts.push({ change: 'added', routeConfig: name, virtualHost: vh });
      out.summary.push(`gains vhost ${vh} (route config ${name})`);
    }
  for (const [vh, vAfter] of va) {
    const vBefore = vb.get(vh);
    if (!vBefore) continue;
    if (JSON.stringify(vBefore) === JSON.stringify(vAfter)) continue;
    const rb = arr(vBefore.routes);
    const ra = arr(vAfter.routes);
    const { pairs, removed, added } = pairRoutes(rb, ra);
    const base = { routeConfig: name, virtualHost: vh };
    const withSource = (c: RouteChange, r: Json): RouteChange => {
      const s = c.change === 'removed' ? sourceBefore(name, vh, c.from ?? -1, r) : sourceAfter(name, vh, c.to ?? -1, r);
      return s ? { ...c, source: s } : c;
    };
    for (const i of removed) {
      const r = rb[i]!;
      out.routes.push(
        withSource({ change: 'removed', ...base, route: routeLabel(r), from: i, ...weightChange(weightsOf(r), undefined) }, r),
      );
      out.summary.push(`loses route \`${routeLabel(r)}\` on vhost ${vh}`);
    }
    for (const j of added) {
      const r = ra[j]!;
      out.routes.push(withSource({ change: 'added', ...base, route: routeLabel(r), to: j, ...weightChange(undefined, weightsOf(r)) }, r));
      out.summary.push(`gains route \`${routeLabel(r)}\` on vhost ${vh} → ${formatWeights(weightsOf(r))}`);
    }
    // Moved: a paired route whose rank among the paired routes changed (an insertion above it is not a move).
    const rankAfter = new Map([...pairs].sort((x, y) => x[1] - y[1]).map(([, j], k) => [j, k]));
    pairs.forEach(([i, j], rank) => {
      const b = rb[i]!;
      const a = ra[j]!;
      const label = routeLabel(a);
      const details = JSON.stringify(b) === JSON.stringify(a) ? [] : describeChange(b, a);
      if (details.length > 0) {
        const wb = weightsOf(b);
        const wa = weightsOf(a);
        const weights = JSON.stringify(wb) !== JSON.stringify(wa) ? weightChange(wb, wa) : {};
        out.routes.push(
          withSource({ change: 'changed', ...base, route: label, from: i, to: j, detail: details.join('; '), ...weights }, a),
        );
        out.summary.push(`route \`${label}\` on vhost ${vh}: ${details.join('; ')}`);
      }
      if (rankAfter.get(j) !== rank) {
        out.routes.push(withSource({ change: 'moved', ...base, route: label, from: i, to: j, detail: `position ${i} → ${j}` }, a));
        out.summary.push(`route \`${label}\` on vhost ${vh} moves ${i} → ${j}`);
      }
    });
  }
  return out;
}

function weightChange(before: Record<string, number> | undefined, after: Record<string, number> | undefined): Pick<RouteChange, 'weights'> {
  if (!before && !after) return {};
  return { weights: { ...(before ? { before } : {}), ...(after ? { after } : {}) } };
}
