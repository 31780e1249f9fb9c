// Which AuthorizationPolicies apply to a proxy, with the reason (pilot/pkg/model/authorization.go
// ListAuthorizationPolicies + policyattachment PolicyMatcherForProxy): policies of the root namespace apply
// mesh-wide, policies of the proxy's namespace apply to it; either when their selector is empty or matches the
// proxy's labels. A policy with targetRefs never applies to a sidecar; it applies to a Gateway API gateway pod
// (label gateway.networking.k8s.io/gateway-name) whose Gateway it names, in the policy's namespace.
import type { AuthorizationAction } from '../../model/authz';
import type { IstioConfig, MeshSnapshot, ProxyModel } from '../../model/mesh';
import { labelsMatch } from '../view/hosts';

export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';

export interface AppliedPolicy {
  policy: IstioConfig<'AuthorizationPolicy'>;
  action: AuthorizationAction;
  /** Why it applies: `root namespace`, `selector app=reviews`, `targetRef Gateway/NAME`. */
  reason: string;
  dryRun: boolean;
}

export interface NotAppliedPolicy {
  policy: IstioConfig<'AuthorizationPolicy'>;
  reason: string;
}

export interface PolicySelection {
  applied: AppliedPolicy[];
  /** Policies of the proxy's namespace or the root namespace that do not select it, with the reason. */
  notApplied: NotAppliedPolicy[];
}

/** builder.go isDryRun: strconv.ParseBool of the `istio.io/dry-run` annotation (bad values = false). */
export function isDryRun(p: IstioConfig<'AuthorizationPolicy'>): boolean {
  const v = p.meta.annotations['istio.io/dry-run'];
  return v !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}

const fmtLabels = (l: Readonly<Record<string, string>>) =>
  Object.entries(l)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

function targetRefMatch(p: IstioConfig<'AuthorizationPolicy'>, proxy: ProxyModel): { ok: boolean; reason: string } {
  const refs = [...(p.spec.targetRef ? [p.spec.targetRef] : []), ...(p.spec.targetRefs ?? [])];
  const gw = proxy.labels[GATEWAY_NAME_LABEL];
  for (const r of refs) {
    const group = r.group ?? '';
    const ns = r.namespace || p.meta.namespace;
    if (gw !== undefined && r.kind === 'Gateway' && group === 'gateway.networking.k8s.io' && r.name === gw && ns === proxy.namespace)
      return { ok: true, reason: `targetRef Gateway/${r.name}` };
  }
  const names = refs.map((r) => `${r.kind}/${r.name}`).join(', ');
  return {
    ok: false,
    reason:
      proxy.type === 'sidecar'
        ? `targetRefs (${names}) never select a sidecar`
        : `targetRefs (${names}) do not name this proxy's Gateway${gw ? ` (${gw})` : ''}`,
  };
}

export function selectPolicies(
  snapshot: Pick<MeshSnapshot, 'authorizationPolicies'>,
  proxy: ProxyModel,
  rootNamespace: string,
): PolicySelection {
  const applied: AppliedPolicy[] = [];
  const notApplied: NotAppliedPolicy[] = [];
  for (const p of snapshot.authorizationPolicies) {
    const ns = p.meta.namespace;
    if (ns !== rootNamespace && ns !== proxy.namespace) continue;
    const scope = ns === rootNamespace ? 'root namespace' : 'namespace';
    const add = (reason: string) => applied.push({ policy: p, action: p.spec.action ?? 'ALLOW', reason, dryRun: isDryRun(p) });
    if (p.spec.targetRef || p.spec.targetRefs?.length) {
      const m = targetRefMatch(p, proxy);
      if (m.ok) add(m.reason);
      else notApplied.push({ policy: p, reason: m.reason });
      continue;
    }
    const sel = p.spec.selector?.matchLabels;
    if (!sel || Object.keys(sel).length === 0) add(`${scope} ${ns}, no selector`);
    else if (labelsMatch(sel, proxy.labels)) add(`${scope} ${ns}, selector ${fmtLabels(sel)}`);
    else notApplied.push({ policy: p, reason: `selector ${fmtLabels(sel)} does not match the proxy's labels` });
  }
  return { applied, notApplied };
}
