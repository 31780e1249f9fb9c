// What a signed-in user may see of each API answer (`serve --auth token|header|openid`; docs/security.md):
// the views are computed for the whole mesh as before and then narrowed here to the caller's namespaces,
// so no handler grows its own rules. A proxy, object or finding outside them is absent from lists and
// answers 404 by id, with the same text an unknown one gets (no existence leak). `--auth none`: no viewer,
// nothing narrowed.
import type { Viewer } from '../auth/access';
import type { MeshEvent } from '../impact/types';
import type { MeshGraph, MeshGraphCounts } from '../meshGraph/graph';
import { scopeAmbient } from '../meshGraph/ambient';
import type { EvaluateResult } from '../sandbox/types';
import type { SyncStatus } from '../xds/types';
import type { ContractsResponse } from './contracts';
import type { AnalyzeResponse } from './analyze';
import type { ErrorsResponse } from './debug';
import type { GatewayApiResponse } from './gatewayApi';
import type { ProxiesResponse, ProxyCountsResponse } from './proxies';
import { parseConfigPath } from '../translate/provenance';
import { fail, type ApiContext, type ApiResult } from './types';

/** `Kind ns/name` → ns; `Kind name` (cluster-scoped) → undefined; no object → null (not attributable). */
export function objectNamespace(object: string | undefined): string | undefined | null {
  if (!object) return null;
  const m = /^\S+\s+([^/\s]+)\/\S+$/.exec(object.trim());
  return m ? m[1] : undefined;
}

/** A located problem or finding: visible when its object's namespace is; one with no object only to a viewer of everything. */
export function seesObject(v: Viewer, object: string | undefined): boolean {
  const ns = objectNamespace(object);
  return ns === null ? v.all : v.sees(ns);
}

/** `POD.NS` → NS, from the snapshot (undefined when no such proxy). */
export const proxyNamespace = (ctx: ApiContext, id: string): string | undefined => ctx.snapshot.proxiesById.get(id)?.namespace;

/** 404 (the text an unknown proxy gets) when the viewer may not see proxy `id`; undefined when it may. */
export function hiddenProxy(ctx: ApiContext, id: string): ApiResult | undefined {
  const v = ctx.viewer;
  if (!v || v.all) return undefined;
  const ns = proxyNamespace(ctx, id) ?? /\.([^.]+)$/.exec(id)?.[1];
  return ns !== undefined && v.sees(ns) ? undefined : fail(404, `proxy "${id}" not found`);
}

const narrow =
  <T>(fn: (v: Viewer, body: T) => T) =>
  (ctx: ApiContext, r: ApiResult<T>): ApiResult<T> =>
    ctx.viewer && !ctx.viewer.all && r.status === 200 ? { status: r.status, body: fn(ctx.viewer, r.body) } : r;

export const scopeProxies = narrow<ProxiesResponse>((v, b) => ({ ...b, proxies: b.proxies.filter((p) => v.sees(p.namespace)) }));

export const scopeProxyCounts = narrow<ProxyCountsResponse>((v, b) => ({
  ...b,
  counts: Object.fromEntries(Object.entries(b.counts).filter(([id]) => v.sees(/\.([^.]+)$/.exec(id)?.[1] ?? ''))),
}));

export const scopeErrors = narrow<ErrorsResponse>((v, b) => ({ ...b, errors: b.errors.filter((e) => seesObject(v, e.object)) }));

export const scopeFindings = narrow<AnalyzeResponse>((v, b) => {
  const findings = b.findings.filter((f) => seesObject(v, f.object));
  const counts = { Error: 0, Warning: 0, Info: 0 } as AnalyzeResponse['counts'];
  for (const f of findings) counts[f.level] = (counts[f.level] ?? 0) + 1;
  return { ...b, findings, counts };
});

export const scopeGatewayApi = narrow<GatewayApiResponse>((v, b) => ({
  ...b,
  gateways: b.gateways.filter((g) => v.sees(g.namespace)),
  routes: b.routes.filter((r) => v.sees(r.namespace)),
}));

/** Nodes in visible namespaces, and the edges between them; the counts of what remains. */
export const scopeGraph = narrow<MeshGraph>((v, g) => {
  const nodes = g.nodes.filter((n) => v.sees(n.namespace));
  const keep = new Set(nodes.map((n) => n.id));
  const edges = g.edges.filter((e) => keep.has(e.source) && keep.has(e.target));
  const kinds = (k: string) => nodes.filter((n) => n.kind === k).length;
  const counts: MeshGraphCounts = {
    ...g.counts,
    namespaces: kinds('namespace'),
    services: kinds('service'),
    workloads: kinds('workload'),
    proxies: kinds('proxy'),
    pods: kinds('pod'),
    routeEdges: edges.filter((e) => e.kind === 'route').length,
  };
  return { ...g, nodes, edges, counts, ...(g.ambient ? { ambient: scopeAmbient(g.ambient, (ns) => v.sees(ns)) } : {}) };
});

/** istiod's syncz rows carry `POD.NS` in `proxy`. */
export const scopeSyncz = narrow<SyncStatus[]>((v, rows) => rows.filter((r) => v.sees(/\.([^.]+)$/.exec(r.proxy ?? '')?.[1] ?? '')));

/** A sandbox evaluation: only the visible proxies' radius, diffs and checks; findings and problems by object. */
export const scopeEvaluation = narrow<EvaluateResult>((v, r) => {
  const proxyNs = (id: string) => /\.([^.]+)$/.exec(id)?.[1] ?? '';
  return {
    ...r,
    blastRadius: r.blastRadius.filter((b) => v.sees(proxyNs(b.proxy))),
    diffs: r.diffs.filter((d) => v.sees(proxyNs(d.proxy))),
    findings: r.findings.filter((f) => seesObject(v, f.object)),
    checks: r.checks.filter((c) => v.sees(proxyNs(c.check.proxy))),
    ...(r.contracts ? { contracts: r.contracts.filter((c) => v.sees(proxyNs(c.contract.proxy))) } : {}),
  };
});

export const scopeContracts = narrow<ContractsResponse>((v, b) => {
  if (b.file === null) return b;
  const results = b.results.filter((r) => v.sees(/\.([^.]+)$/.exec(r.contract.proxy)?.[1] ?? ''));
  return { ...b, results, passed: results.filter((r) => r.pass).length, failed: results.filter((r) => !r.pass).length };
});

/** GET /api/config?path=…: an object in a namespace the viewer may not see answers as an unknown one. */
export function scopeConfigObject<T>(ctx: ApiContext, path: string | null, r: ApiResult<T>): ApiResult<T | { error: string }> {
  const v = ctx.viewer;
  const p = path ? parseConfigPath(path) : undefined;
  if (!v || v.all || !p || v.sees(p.namespace)) return r;
  return fail(404, `${p.kind} ${p.namespace}/${p.name} is not in snapshot v${ctx.snapshot.version}`);
}

/** The MeshConfig lives in the root namespace (ConfigMap istio-system/istio): visible with it, else 404. */
export function hiddenMeshConfig(ctx: ApiContext): ApiResult | undefined {
  const v = ctx.viewer;
  if (!v || v.all || v.sees(ctx.options.rootNamespace)) return undefined;
  return fail(404, `the mesh config is in namespace ${ctx.options.rootNamespace}, which you cannot see`);
}

/** istiod's whole-registry debug views (configz, registryz, adsz): only for a viewer of every namespace. */
export function wholeMeshOnly(ctx: ApiContext): ApiResult | undefined {
  const v = ctx.viewer;
  if (!v || v.all) return undefined;
  return fail(404, 'this debug view covers every namespace; it is shown only to users who can see them all');
}

/**
 * A draft may only touch namespaces the viewer sees: over others it would tell whether an object exists
 * (replace vs add). 403 names the namespace (the viewer's own permissions, no object's existence).
 */
export function draftOutsideView(ctx: ApiContext, r: EvaluateResult): ApiResult | undefined {
  const v = ctx.viewer;
  if (!v || v.all) return undefined;
  for (const e of r.edits) {
    const ns = objectNamespace(e.object);
    if (typeof ns === 'string' && !v.sees(ns)) return fail(403, `the draft touches namespace ${ns}, which you cannot see`);
  }
  return undefined;
}

/** An SSE `proxies` event: only the visible proxies are named. */
export function scopeEvent(ctx: ApiContext, e: MeshEvent): MeshEvent {
  const v = ctx.viewer;
  if (!v || v.all) return e;
  return { ...e, proxies: e.proxies.filter((id) => v.sees(/\.([^.]+)$/.exec(id)?.[1] ?? '')) };
}

/** ztunnel's view (`GET /api/ztunnel`): the workloads, services and policies of visible namespaces only. */
export function scopeZtunnel<T>(ctx: ApiContext, r: ApiResult<T>): ApiResult<T> {
  const v = ctx.viewer;
  if (!v || v.all || r.status !== 200 || typeof r.body !== 'object' || r.body === null) return r;
  const body: Record<string, unknown> = { ...(r.body as Record<string, unknown>) };
  for (const key of ['workloads', 'services', 'policies']) {
    const list = body[key];
    if (Array.isArray(list)) body[key] = list.filter((x) => v.sees((x as { namespace?: string }).namespace ?? ''));
  }
  return { status: r.status, body: body as T };
}
