// Which EnvoyFilter patches apply to a proxy, in istiod's order (pilot/pkg/model/push_context.go EnvoyFilters,
// getMatchedEnvoyFilters; model/envoyfilter.go convertToEnvoyFilterWrapper, proxyMatch; policyattachment.go
// WorkloadPolicyMatcher.ShouldAttachPolicy). Candidates are the EnvoyFilters of the root namespace and of the
// proxy's namespace; the rest never concern it.
import type { IstioConfig, MeshSnapshot, ProxyModel } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { findPod } from '../translate/view/serviceTargets';
import type { EnvoyFilterPatchReport, PatchWrapper } from './types';
import { compileRe2, type Re2 } from '../lib/re2';

const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';
const MAX_PROXY_VERSION_LEN = 1024;
/** model/envoyfilter.go wellKnownVersions: these regexes are prefix matches on the version. */
const WELL_KNOWN_VERSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  ['16', '17', '18', '19', '20', '21', '22', '23'].map((m) => [`^1\\.${m}.*`, `1.${m}`]),
);

/** The proxy's Istio version: ISTIO_VERSION node metadata of a connected Envoy, else the istio-proxy image tag. */
export function proxyIstioVersion(snapshot: MeshSnapshot, proxy: ProxyModel): string | undefined {
  const fromNode = proxy.metadata?.ISTIO_VERSION;
  if (fromNode) return fromNode;
  const image = findPod(snapshot, proxy)?.proxyImage;
  if (!image) return undefined;
  const at = image.indexOf('@');
  const ref = at >= 0 ? image.slice(0, at) : image;
  const colon = ref.lastIndexOf(':');
  if (colon < 0 || ref.indexOf('/', colon) >= 0) return undefined;
  // `1.22.3`, `1.22.3-distroless` → the version part.
  return ref.slice(colon + 1).replace(/-(distroless|debug)$/, '') || undefined;
}

/** Go regexp (RE2) semantics (server/lib/re2.ts); an invalid pattern compiles to nothing. */
function compileRegex(pattern: string): Re2 | undefined {
  const r = compileRe2(pattern);
  return r.ok ? r.re : undefined;
}

/** proxyMatch: why the patch's `match.proxy` rejects this proxy, or undefined when it matches. */
export function proxyMismatch(
  p: PatchWrapper,
  version: string | undefined,
  metadata: Readonly<Record<string, string>>,
): string | undefined {
  const m = p.match.proxy;
  if (!m) return undefined;
  const pv = m.proxyVersion ?? '';
  if (pv !== '') {
    const prefix = WELL_KNOWN_VERSIONS[pv];
    if (prefix !== undefined) {
      if (!(version ?? '').startsWith(prefix)) return `proxyVersion ${pv}: proxy version ${version ?? 'unknown'} does not match`;
    } else if (pv.length > MAX_PROXY_VERSION_LEN) {
      return 'proxyVersion longer than 1024 characters never matches';
    } else {
      const re = compileRegex(pv);
      // istiod ignores a proxyVersion that does not compile (regexp.Compile error → nil regex → no check).
      if (re) {
        if (!version) return `proxyVersion ${pv}: proxy version unknown (no ISTIO_VERSION metadata, no istio-proxy image tag)`;
        // Go's Regexp.MatchString: unanchored.
        if (!re.partialMatch(version)) return `proxyVersion ${pv}: proxy version ${version} does not match`;
      }
    }
  }
  for (const [k, v] of Object.entries(m.metadata ?? {})) {
    if ((metadata[k] ?? '') !== v) return `proxy metadata ${k}=${v} does not match (${metadata[k] ?? 'unset'})`;
  }
  return undefined;
}

/** ShouldAttachPolicy for EnvoyFilter: why the filter does not select the proxy, or undefined when it does. */
function notSelected(ef: IstioConfig<'EnvoyFilter'>, proxy: ProxyModel, rootNamespace: string): string | undefined {
  const refs = ef.spec.targetRefs ?? [];
  const gatewayName = proxy.labels[GATEWAY_NAME_LABEL];
  const selectorMatch = () => {
    const labels = ef.spec.workloadSelector?.labels ?? {};
    const miss = Object.entries(labels).find(([k, v]) => proxy.labels[k] !== v);
    return miss ? `workloadSelector ${miss[0]}=${miss[1]} does not select this proxy` : undefined;
  };
  if (gatewayName === undefined) {
    if (refs.length > 0) return 'targetRefs: applies to Gateway API gateways and waypoints only, never to sidecars or Istio gateways';
    return selectorMatch();
  }
  const waypoint = proxyKind(proxy).nodeType === 'waypoint';
  if (refs.length === 0) return waypoint ? 'no targetRefs: a workload-scoped EnvoyFilter is ignored for waypoints' : selectorMatch();
  for (const r of refs) {
    if (waypoint && ef.meta.namespace === rootNamespace && r.kind === 'GatewayClass' && r.name === 'istio-waypoint') return undefined;
    if (proxy.namespace !== ef.meta.namespace) continue;
    if (r.namespace && r.namespace !== proxy.namespace) continue;
    if ((r.group ?? '') === 'gateway.networking.k8s.io' && r.kind === 'Gateway' && r.name === gatewayName) return undefined;
  }
  return `targetRefs do not name this proxy's Gateway ${gatewayName}`;
}

const time = (ef: IstioConfig<'EnvoyFilter'>) => Date.parse(ef.meta.creationTimestamp ?? '') || 0;

/**
 * The EnvoyFilters concerning the proxy, in push_context.go EnvoyFilters order: priority, root namespace first,
 * creation time, `name.namespace`; with the ones that do not select it (reported, never applied).
 */
export function candidateFilters(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  rootNamespace: string,
): { selected: IstioConfig<'EnvoyFilter'>[]; rejected: Array<{ ef: IstioConfig<'EnvoyFilter'>; reason: string }> } {
  const selected: IstioConfig<'EnvoyFilter'>[] = [];
  const rejected: Array<{ ef: IstioConfig<'EnvoyFilter'>; reason: string }> = [];
  for (const ef of snapshot.envoyFilters ?? []) {
    const ns = ef.meta.namespace;
    if (ns !== rootNamespace && ns !== proxy.namespace) continue;
    const why = notSelected(ef, proxy, rootNamespace);
    if (why) rejected.push({ ef, reason: why });
    else selected.push(ef);
  }
  selected.sort((a, b) => {
    const pa = a.spec.priority ?? 0;
    const pb = b.spec.priority ?? 0;
    if (pa !== pb) return pa - pb;
    if (a.meta.namespace !== b.meta.namespace && (a.meta.namespace === rootNamespace || b.meta.namespace === rootNamespace))
      return a.meta.namespace === rootNamespace ? -1 : 1;
    const ta = time(a);
    const tb = time(b);
    if (ta !== tb) return ta - tb;
    const na = `${a.meta.name}.${a.meta.namespace}`;
    const nb = `${b.meta.name}.${b.meta.namespace}`;
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return { selected, rejected };
}

/** A report entry for a patch that never ran. */
export function skippedReport(ef: IstioConfig<'EnvoyFilter'>, index: number, reason: string): EnvoyFilterPatchReport {
  const cp = ef.spec.configPatches?.[index];
  return {
    namespace: ef.meta.namespace,
    name: ef.meta.name,
    patch: index,
    applyTo: cp?.applyTo ?? 'INVALID',
    operation: cp?.patch?.operation ?? 'INVALID',
    context: cp?.match?.context ?? 'ANY',
    applied: false,
    targets: [],
    reason,
  };
}
