// One proxy's config, live → draft: which resources changed (by content hash of the encoded resource, the
// same bytes ADS would send), their raw Envoy JSON before/after, and the semantic diff — route configs via
// diffRoutes, clusters (added / removed / policy changed), listeners (filter chains added / removed),
// endpoints (counts). Pure.
import diff from 'microdiff';
import type { EncodedResource, EnvoyJson } from '../envoy/encode';
import type { ProxyResources } from '../pipeline/proxyResources';
import { diffRouteConfig } from './diffRoutes';
import { routeSources } from './provenance';
import type { ProxyDiff, ResourceChange, ResourceType } from './types';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export const RESOURCE_TYPES: readonly ResourceType[] = ['listeners', 'routes', 'clusters', 'endpoints'];

/** The resources that differ between two encoded lists of one type, by name; sorted by name. */
export function changedResources(
  type: ResourceType,
  before: readonly EncodedResource[],
  after: readonly EncodedResource[],
): ResourceChange[] {
  const b = new Map(before.map((r) => [r.name, r]));
  const a = new Map(after.map((r) => [r.name, r]));
  const out: ResourceChange[] = [];
  for (const name of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const x = b.get(name);
    const y = a.get(name);
    if (x && y && x.hash === y.hash) continue;
    const change = !x ? 'added' : !y ? 'removed' : 'changed';
    out.push({ type, name, change, ...(x ? { before: x.json } : {}), ...(y ? { after: y.json } : {}) });
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
    paths.add(p.join('.'));
  }
  return [...paths].sort();
}

const chainKey = (c: Json) => (typeof c.name === 'string' && c.name !== '' ? c.name : JSON.stringify(c.filter_chain_match ?? {}));

function listenerSummary(rc: ResourceChange): string[] {
  if (rc.change === 'added') return [`new listener ${rc.name}`];
  if (rc.change === 'removed') return [`loses listener ${rc.name}`];
  const b = new Map(arr((rc.before as Json).filter_chains).map((c) => [chainKey(c), c]));
  const a = new Map(arr((rc.after as Json).filter_chains).map((c) => [chainKey(c), c]));
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
  for (const l of arr((cla as Json | undefined)?.endpoints)) n += arr(l.lb_endpoints).length;
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
export function diffProxy(proxy: string, before: ProxyResources | undefined, after: ProxyResources | undefined): ProxyDelta | undefined {
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
      const d = diffRouteConfig(rc.name, rc.before as EnvoyJson | undefined, rc.after as EnvoyJson | undefined, sourceBefore, sourceAfter);
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
