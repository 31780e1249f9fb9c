// The EnvoyFilter stage: one pure function after translation, before encoding (server/pipeline/stages.ts SEAM).
// istiod applies EnvoyFilters last, to the resources it already built (listener_builder.go patchListeners,
// route/route.go + rc_patch.go, cluster_builder.go ApplyClusterMerge/InsertedClusters); so does meshscope, on
// copies of the translated table (translating twice never accumulates: Istio's TestAccessLogPatch regression).
// Returns the patched table and, per config patch of every EnvoyFilter that could concern the proxy, whether it
// changed the proxy's config, where, or why not.
import type { EnvoyFilterApplyTo, EnvoyFilterOperation, EnvoyFilterPatchContext } from '../model/istio';
import type { IstioConfig, LoadError, MeshSnapshot, ProxyModel } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { configError } from '../translate/configError';
import type { ResourceTable } from '../translate/types';
import { serviceTargets } from '../translate/view/serviceTargets';
import { clusterContext, patchClusters } from './clusters';
import { decodePatchValue } from './decode';
import { listenerContext, patchListeners } from './listeners';
import { type ClusterKey, clusterKey, clusterMatch, contextMatch, listenerMatch, routeConfigurationMatch } from './match';
import type { Json } from './merge';
import { patchRouteConfiguration } from './routes';
import { candidateFilters, proxyIstioVersion, proxyMismatch, skippedReport } from './select';
import type { EnvoyFilterPatchReport, PatchWrapper } from './types';

export type { EnvoyFilterPatchReport } from './types';

export interface EnvoyFilterContext {
  snapshot: MeshSnapshot;
  rootNamespace: string;
}

/** model/envoyfilter.go: INSERT_* keep their position only where order exists; elsewhere they are ADDs. */
const ORDERED: ReadonlySet<EnvoyFilterApplyTo> = new Set(['HTTP_FILTER', 'NETWORK_FILTER', 'HTTP_ROUTE', 'LISTENER_FILTER']);
/** applyTo kinds whose patches no xDS resource meshscope serves can receive (docs/envoyfilter.md "Not applicable"). */
const NOT_MODELLED: Partial<Record<EnvoyFilterApplyTo, string>> = {
  // Istio removed the experimental BOOTSTRAP_XDS_AGENT path that applied them (releasenotes/notes/bds-removal.yaml):
  // istiod validates these patches and applies them nowhere; the bootstrap is the agent's, not an xDS resource.
  BOOTSTRAP: "BOOTSTRAP patches are applied by no xDS response (the bootstrap is the istio-agent's; Istio removed BOOTSTRAP_XDS_AGENT)",
  // extension_configuration_patch.go InsertedExtensionConfigurations: ADDed TypedExtensionConfigs are sent over ECDS
  // when Envoy asks for them by name.
  EXTENSION_CONFIG: 'EXTENSION_CONFIG patches are served over ECDS (by name, to Envoys that ask), which meshscope does not serve',
};

function effectiveOperation(applyTo: EnvoyFilterApplyTo, op: EnvoyFilterOperation): EnvoyFilterOperation {
  if ((op === 'INSERT_AFTER' || op === 'INSERT_BEFORE' || op === 'INSERT_FIRST') && !ORDERED.has(applyTo)) return 'ADD';
  return op;
}

const byName = (a: Json, b: Json) => {
  const x = String(a.name ?? '');
  const y = String(b.name ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The proxy's patches in istiod's order, decoded; reports for the ones that will not run. */
function wrapPatches(
  ctx: EnvoyFilterContext,
  proxy: ProxyModel,
  errors: LoadError[],
): { patches: PatchWrapper[]; reports: EnvoyFilterPatchReport[] } {
  const { selected, rejected } = candidateFilters(ctx.snapshot, proxy, ctx.rootNamespace);
  const reports: EnvoyFilterPatchReport[] = [];
  const patches: PatchWrapper[] = [];
  const version = proxyIstioVersion(ctx.snapshot, proxy);
  const metadata = proxy.metadata ?? {};
  const order = new Map<IstioConfig<'EnvoyFilter'>, number>(selected.map((ef, i) => [ef, i]));
  for (const ef of [...selected, ...rejected.map((r) => r.ef)]) {
    const why = rejected.find((r) => r.ef === ef)?.reason;
    (ef.spec.configPatches ?? []).forEach((cp, index) => {
      if (why !== undefined) return void reports.push(skippedReport(ef, index, why));
      if (!cp.patch) return void reports.push(skippedReport(ef, index, 'missing patch'));
      const applyTo = cp.applyTo ?? 'INVALID';
      const notModelled = NOT_MODELLED[applyTo];
      if (applyTo === 'INVALID') return void reports.push(skippedReport(ef, index, 'applyTo INVALID'));
      if (notModelled) return void reports.push(skippedReport(ef, index, notModelled));
      const decoded = cp.patch.operation === 'REMOVE' ? undefined : decodePatchValue(applyTo, cp.patch.value);
      if (decoded && !decoded.ok) {
        errors.push(configError(ef, `spec.configPatches[${index}].patch.value`, `patch dropped: value does not decode: ${decoded.error}`));
        return void reports.push(skippedReport(ef, index, `decode error: ${decoded.error}`));
      }
      const operation = effectiveOperation(applyTo, cp.patch.operation ?? 'INVALID');
      const report: EnvoyFilterPatchReport = { ...skippedReport(ef, index, ''), operation, applied: false };
      delete report.reason;
      const w: PatchWrapper = {
        namespace: ef.meta.namespace,
        name: ef.meta.name,
        index,
        applyTo,
        operation,
        context: cp.match?.context ?? 'ANY',
        match: cp.match ?? {},
        value: decoded?.ok ? decoded.value : undefined,
        report,
      };
      const mismatch = proxyMismatch(w, version, metadata);
      if (mismatch) return void reports.push({ ...report, reason: mismatch });
      patches.push(w);
      reports.push(report);
    });
  }
  // Report order: the filters as istiod orders them, the unselected after.
  reports.sort((a, b) => {
    const ia = [...order].find(([ef]) => ef.meta.name === a.name && ef.meta.namespace === a.namespace)?.[1] ?? order.size;
    const ib = [...order].find(([ef]) => ef.meta.name === b.name && ef.meta.namespace === b.namespace)?.[1] ?? order.size;
    return ia - ib || a.patch - b.patch;
  });
  return { patches, reports };
}

/**
 * Applies the EnvoyFilters selecting `proxy` to its translated `table`. Pure: the input table is never mutated;
 * without EnvoyFilters concerning the proxy the same table comes back.
 */
export function applyEnvoyFilters(
  table: ResourceTable,
  proxy: ProxyModel,
  ctx: EnvoyFilterContext,
): { table: ResourceTable; report: EnvoyFilterPatchReport[] } {
  if (!ctx.snapshot.envoyFilters?.length || !proxyKind(proxy).envoy) return { table, report: [] };
  const errors: LoadError[] = [];
  const { patches, reports } = wrapPatches(ctx, proxy, errors);
  if (reports.length === 0) return { table, report: [] };
  if (patches.length === 0) return { table: errors.length ? { ...table, errors: [...table.errors, ...errors] } : table, report: reports };

  const gateway = proxyKind(proxy).translator === 'gateway';
  const targets = serviceTargets(ctx.snapshot, proxy);
  const portMap = new Map<number, Set<number>>();
  for (const t of targets) {
    if (!portMap.has(t.targetPort)) portMap.set(t.targetPort, new Set());
    portMap.get(t.targetPort)?.add(t.port.port);
  }
  const inboundHosts = [...new Set(targets.map((t) => t.service.hostname))];

  // Copy on write: only the resources some patch could touch (context and top-level match) are cloned and walked;
  // the rest are the translator's objects, shared untouched.
  const LISTENER_KINDS = new Set(['LISTENER', 'LISTENER_FILTER', 'FILTER_CHAIN', 'NETWORK_FILTER', 'HTTP_FILTER']);
  const RC_KINDS = new Set(['ROUTE_CONFIGURATION', 'VIRTUAL_HOST', 'HTTP_ROUTE']);
  const adds = (p: PatchWrapper) => p.operation === 'ADD' && (p.applyTo === 'LISTENER' || p.applyTo === 'CLUSTER');
  const lp = patches.filter((p) => LISTENER_KINDS.has(p.applyTo));
  const rp = patches.filter((p) => RC_KINDS.has(p.applyTo));
  const cp = patches.filter((p) => p.applyTo === 'CLUSTER');
  const inboundRc = rp.some((p) => contextMatch('SIDECAR_INBOUND', p)) && !gateway;
  const touchesListener = (l: Json) => {
    const c = listenerContext(l, gateway);
    return (inboundRc && c === 'SIDECAR_INBOUND') || lp.some((p) => !adds(p) && contextMatch(c, p) && listenerMatch(l, p));
  };
  const split = <T>(list: readonly T[], touches: (x: Json) => boolean): { keep: Json[]; work: Json[] } => {
    const keep: Json[] = [];
    const work: Json[] = [];
    for (const x of list as unknown as Json[]) touches(x) ? work.push(structuredClone(x)) : keep.push(x);
    return { keep, work };
  };
  const ls = split(table.listeners, touchesListener);

  // Inline route configs of inbound HCMs are patched as istiod builds them (SIDECAR_INBOUND), before listeners.
  for (const l of ls.work) {
    if (!inboundRc || listenerContext(l, gateway) !== 'SIDECAR_INBOUND') continue;
    for (const fc of [...((l.filterChains as Json[] | undefined) ?? []), ...(l.defaultFilterChain ? [l.defaultFilterChain as Json] : [])]) {
      for (const f of (fc.filters as Json[] | undefined) ?? []) {
        const rc = (f.typedConfig as Json | undefined)?.routeConfig as Json | undefined;
        if (rc) patchRouteConfiguration('SIDECAR_INBOUND', rc, rp, portMap, `listener ${String(l.name)} / route_config ${String(rc.name)}`);
      }
    }
  }
  let patchedListeners: Json[];
  if (gateway) {
    patchedListeners = patchListeners('GATEWAY', ls.work, lp, false);
  } else {
    const virtual = (l: Json) => l.name === 'virtualInbound' || l.name === 'virtualOutbound';
    const group = (c: EnvoyFilterPatchContext, v: boolean) => ls.work.filter((l) => virtual(l) === v && listenerContext(l, false) === c);
    patchedListeners = [
      ...patchListeners('SIDECAR_OUTBOUND', group('SIDECAR_OUTBOUND', true), lp, true),
      ...patchListeners('SIDECAR_INBOUND', group('SIDECAR_INBOUND', true), lp, true),
      ...patchListeners('SIDECAR_INBOUND', group('SIDECAR_INBOUND', false), lp, false),
      ...patchListeners('SIDECAR_OUTBOUND', group('SIDECAR_OUTBOUND', false), lp, false),
    ];
  }
  const rcContext: EnvoyFilterPatchContext = gateway ? 'GATEWAY' : 'SIDECAR_OUTBOUND';
  // Route configurations: a ROUTE_CONFIGURATION MERGE may change any part, so its targets are copied whole; for the
  // rest a shallow copy with its own virtual-host list, and patchRouteConfiguration copies the virtual hosts it changes
  // (a sidecar's route config holds one per service: 1,000 in a 1,000-service mesh).
  const rcTouch = (rc: Json) => rp.filter((p) => contextMatch(rcContext, p) && routeConfigurationMatch(rcContext, rc, p, portMap));
  const rs: { keep: Json[]; work: Json[] } = { keep: [], work: [] };
  for (const rc of table.routes as unknown as Json[]) {
    const touching = rcTouch(rc);
    if (touching.length === 0) rs.keep.push(rc);
    else if (touching.some((p) => p.applyTo === 'ROUTE_CONFIGURATION')) rs.work.push(structuredClone(rc));
    else rs.work.push(Array.isArray(rc.virtualHosts) ? { ...rc, virtualHosts: [...rc.virtualHosts] } : { ...rc });
  }
  for (const rc of rs.work) patchRouteConfiguration(rcContext, rc, rp, portMap, `route ${String(rc.name)}`);
  const cpTouch = cp.filter((p) => !adds(p));
  const cs = split(table.clusters, (c) => {
    if (cpTouch.length === 0) return false;
    const context = clusterContext(c, gateway);
    let key: ClusterKey | undefined;
    return cpTouch.some(
      (p) => contextMatch(context, p) && clusterMatch(c, p, inboundHosts, p.match.cluster?.name ? undefined : (key ??= clusterKey(c))),
    );
  });
  const patchedClusters = [...cs.keep, ...patchClusters(cs.work, cp, gateway, inboundHosts)];
  const listeners = [...ls.keep, ...patchedListeners];
  const routes = [...rs.keep, ...rs.work];
  const clusters = table.clusters as unknown as Json[];

  const contexts = new Set<EnvoyFilterPatchContext>(gateway ? ['GATEWAY'] : ['SIDECAR_INBOUND', 'SIDECAR_OUTBOUND']);
  for (const c of clusters) contexts.add(clusterContext(c, gateway));
  for (const p of patches) {
    if (p.report.applied) continue;
    p.report.reason =
      p.context !== 'ANY' && !contexts.has(p.context)
        ? `context ${p.context}: this proxy is ${gateway ? 'a gateway' : 'a sidecar'}`
        : 'no matching element';
  }
  const out: ResourceTable = {
    ...table,
    listeners: listeners.sort(byName) as ResourceTable['listeners'],
    routes: routes.sort(byName) as ResourceTable['routes'],
    clusters: patchedClusters.sort(byName) as ResourceTable['clusters'],
    errors: [...table.errors, ...errors],
  };
  return { table: out, report: reports };
}
