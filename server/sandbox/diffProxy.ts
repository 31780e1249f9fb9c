// One proxy's config, live → draft: which resources changed (their translated JSON differs), before/after,
// and the semantic diff — route configs via diffRoutes, clusters (added / removed / policy changed),
// listeners (filter chains added / removed), endpoints (counts). Works on the translator's proto3 JSON
// (camelCase); evaluate() turns the before/after of the diffs it returns into Envoy JSON. Pure.
import diff from 'microdiff';
import type { RouteProvenance } from '../translate/types';
import { diffRouteConfig, snakePath } from './diffRoutes';
import { routeSources } from './provenance';
import type { EnvoyResourceType, ProxyDiff, ResourceChange, ResourceType } from './types';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export const RESOURCE_TYPES: readonly EnvoyResourceType[] = ['listeners', 'routes', 'clusters', 'endpoints'];

/** A resource's name: `name`, or `clusterName` for a ClusterLoadAssignment. */
export const resourceName = (type: ResourceType, r: unknown): string => {
  const o = r as { name?: string; clusterName?: string };
  return (type === 'endpoints' ? o.clusterName : o.name) ?? '';
};

/** What diffProxy reads of a side: its translated resources (all, or only the changed ones) and route provenance. */
export interface ResourceSides {
  listeners: readonly unknown[];
  routes: readonly unknown[];
  clusters: readonly unknown[];
  endpoints: readonly unknown[];
  provenance: readonly RouteProvenance[];
}

/** The resources that differ between two lists of one type, by name (JSON compared); sorted by name. */
export function changedResources(type: ResourceType, before: readonly unknown[], after: readonly unknown[]): ResourceChange[] {
  const b = new Map(before.map((r) => [resourceName(type, r), r]));
  const a = new Map(after.map((r) => [resourceName(type, r), r]));
  const out: ResourceChange[] = [];
  for (const name of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const x = b.get(name);
    const y = a.get(name);
    if (x !== undefined && y !== undefined && JSON.stringify(x) === JSON.stringify(y)) continue;
    const change = x === undefined ? 'added' : y === undefined ? 'removed' : 'changed';
    out.push({ type, name, change, ...(x !== undefined ? { before: x } : {}), ...(y !== undefined ? { after: y } : {}) });
  }
  return out;
}

/** Paths (two levels) a structural diff of two Envoy resources touches, e.g. `lb_policy`, `circuit_breakers.thresholds`. */
function changedPaths(before: unknown, after: unknown, skip: ReadonlySet<string> = new Set()): string[] {
  const paths = new Set<string>();
  for (const d of diff(before as Json, after as Json)) {
    const p = d.path.filter((s) => typeof s === 'string').slice(0, 2);
    const top = p[0];
    if (top === undefined || skip.has(top)) continue;
    paths.add(snakePath(p));
  }
  return [...paths].sort();
}

const chainKey = (c: Json) => (typeof c.name === 'string' && c.name !== '' ? c.name : JSON.stringify(c.filterChainMatch ?? {}));

function listenerSummary(rc: ResourceChange): string[] {
  if (rc.change === 'added') return [`new listener ${rc.name}`];
  if (rc.change === 'removed') return [`loses listener ${rc.name}`];
  const b = new Map(arr((rc.before as Json).filterChains).map((c) => [chainKey(c), c]));
  const a = new Map(arr((rc.after as Json).filterChains).map((c) => [chainKey(c), c]));
  const out: string[] = [];
  for (const k of a.keys()) if (!b.has(k)) out.push(`listener ${rc.name} gains filter chain ${k}`);
  for (const k of b.keys()) if (!a.has(k)) out.push(`listener ${rc.name} loses filter chain ${k}`);
  for (const [k, c] of a) {
    const old = b.get(k);
    if (old && JSON.stringify(old) !== JSON.stringify(c)) out.push(`listener ${rc.name} filter chain ${k} changed`);
  }
  if (out.length === 0) out.push(`listener ${rc.name} changed (${changedPaths(rc.before, rc.after).join(', ')})`);
  return out;
}

function clusterSummary(rc: ResourceChange): string[] {
  if (rc.change === 'added') return [`new cluster ${rc.name}`];
  if (rc.change === 'removed') return [`loses cluster ${rc.name}`];
  return [`cluster ${rc.name}: ${changedPaths(rc.before, rc.after).join(', ')} changed`];
}

function endpointCount(cla: unknown): number {
  let n = 0;
  for (const l of arr((cla as Json | undefined)?.endpoints)) n += arr(l.lbEndpoints).length;
  return n;
}

function endpointSummary(rc: ResourceChange): string[] {
  if (rc.change === 'added') return [`new endpoints for ${rc.name} (${endpointCount(rc.after)})`];
  if (rc.change === 'removed') return [`loses endpoints of ${rc.name}`];
  const nb = endpointCount(rc.before);
  const na = endpointCount(rc.after);
  return [nb === na ? `endpoints of ${rc.name} changed` : `endpoints of ${rc.name}: ${nb} → ${na}`];
}

export interface ProxyDelta {
  diff: ProxyDiff;
  types: ResourceType[];
}

/** undefined when nothing the proxy is sent differs. A proxy only on one side has every resource added/removed. */

export function diffProxy(proxy: string, before: ResourceSides | undefined, after: ResourceSides | undefined): ProxyDelta | undefined {
  const resources: ResourceChange[] = [];
  const types: ResourceType[] = [];
  for (const t of RESOURCE_TYPES) {
    const rs = changedResources(t, before?.[t] ?? [], after?.[t] ?? []);
    if (rs.length > 0) types.push(t);
    resources.push(...rs);
  }
  if (resources.length === 0) return undefined;
  const out: ProxyDiff = { proxy, summary: [], virtualHosts: [], routes: [], resources };
  const sourceBefore = routeSources(before?.provenance);
  const sourceAfter = routeSources(after?.provenance);
  if (!before) out.summary.push('new proxy');
  else if (!after) out.summary.push('proxy removed');
  for (const rc of resources) {
    if (rc.type === 'routes') {
      const d = diffRouteConfig(rc.name, rc.before as Json | undefined, rc.after as Json | undefined, sourceBefore, sourceAfter);
      if (rc.change === 'added') out.summary.push(`new route config ${rc.name}`);
      else if (rc.change === 'removed') out.summary.push(`loses route config ${rc.name}`);
      out.virtualHosts.push(...(rc.change === 'changed' ? d.virtualHosts : []));
      out.routes.push(...d.routes);
      if (rc.change === 'changed') out.summary.push(...(d.summary.length > 0 ? d.summary : [`route config ${rc.name} changed`]));
    } else if (rc.type === 'listeners') out.summary.push(...listenerSummary(rc));
    else if (rc.type === 'clusters') out.summary.push(...clusterSummary(rc));
    else out.summary.push(...endpointSummary(rc));
  }
  return { diff: out, types };
}

export { changedPaths };
