// A proxy's Security view (the proxy page's Security tab): the AuthorizationPolicies that apply to it, with
// their rules in words and the RBAC policy names istiod gives them, and the ones of its namespace / the root
// namespace that do not apply, with the reason; and the effective mTLS per inbound port / outbound cluster with the
// PeerAuthentication or DestinationRule behind it. Pure: computed from the snapshot.
import type { AuthorizationAction, AuthzRule } from '../model/authz';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { BAD_CUSTOM_SUFFIX, customProvider, policyName, rbacConfigs, type AuthzBuildNote } from '../translate/authz/builder';
import { providerCluster } from '../translate/authz/extAuthz';
import { selectPolicies } from '../translate/authz/select';
import { type EffectiveMtls, effectiveMtls } from '../translate/mtls';

export interface SecurityRuleView {
  index: number;
  /** The RBAC policy name this rule becomes (`ns[NS]-policy[NAME]-rule[i]`). */
  rbacName: string;
  /** One line per `from` source, `to` operation and `when` condition. */
  from: string[];
  to: string[];
  when: string[];
}

export interface SecurityPolicyView {
  namespace: string;
  name: string;
  action: AuthorizationAction;
  dryRun: boolean;
  provider?: string;
  /** Why it applies (root namespace / selector / targetRef). */
  reason: string;
  rules: SecurityRuleView[];
  /** Rules istiod drops on some chains (HTTP-only fields of an ALLOW rule on TCP chains, …). */
  notes: string[];
}

export interface ProxySecurity {
  /** In the order the RBAC filters run: CUSTOM, AUDIT, DENY, ALLOW. */
  policies: SecurityPolicyView[];
  notApplied: { namespace: string; name: string; reason: string }[];
  /**
   * What istiod decides for transport security (translate/mtls.ts effectiveMtls): per inbound port the mTLS
   * mode and the PeerAuthentication (or mesh default) behind it; per outbound cluster auto mTLS / DR / none.
   */
  mtls: Pick<EffectiveMtls, 'inbound' | 'clusters'>;
}

const ORDER: Record<AuthorizationAction, number> = { CUSTOM: 0, AUDIT: 1, DENY: 2, ALLOW: 3 };

function fields(o: object | undefined): string {
  return Object.entries(o ?? {})
    .filter(([, v]) => Array.isArray(v) && v.length > 0)
    .map(([k, v]) => `${k}: ${(v as string[]).join(', ')}`)
    .join('; ');
}

export function describeRule(rule: AuthzRule): Pick<SecurityRuleView, 'from' | 'to' | 'when'> {
  return {
    from: (rule.from ?? []).map((f) => fields(f.source)),
    to: (rule.to ?? []).map((t) => fields(t.operation)),
    when: (rule.when ?? []).map(
      (c) =>
        `${c.key}${c.values?.length ? ` in [${c.values.join(', ')}]` : ''}${c.notValues?.length ? ` not in [${c.notValues.join(', ')}]` : ''}`,
    ),
  };
}

export function proxySecurity(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): ProxySecurity {
  const sel = selectPolicies(snapshot, proxy, options.rootNamespace);
  const eff = effectiveMtls(snapshot, proxy, options);
  const notes: AuthzBuildNote[] = [];
  const providers = options.extensionProviders;
  rbacConfigs(sel.applied, true, notes, providers);
  rbacConfigs(sel.applied, false, notes, providers);
  const ext = customProvider(
    sel.applied.filter((a) => a.action === 'CUSTOM'),
    providers,
  );
  const policies = [...sel.applied]
    .sort((a, b) => ORDER[a.action] - ORDER[b.action])
    .map((a): SecurityPolicyView => {
      const { meta, spec } = a.policy;
      const custom = a.action === 'CUSTOM';
      const provider = spec.provider?.name;
      const id = `${meta.namespace}/${meta.name}`;
      const rules = (spec.rules ?? []).map((r, i) => ({
        index: i,
        rbacName:
          policyName(meta.namespace, meta.name, i, custom ? (provider ?? '') : undefined) + (custom && !ext ? BAD_CUSTOM_SUFFIX : ''),
        ...describeRule(r),
      }));
      const own = [...new Set(notes.filter((n) => n.policy === id).map((n) => n.message))];
      if (!spec.rules?.length) own.push('no rules: matches nothing (an ALLOW policy without rules allows nothing)');
      if (custom && a.dryRun) own.push('dry-run CUSTOM policy: left out of the CUSTOM filter istiod builds');
      else if (custom && ext)
        own.push(`requests the rules match are checked by the ext_authz provider "${provider}" (${ext.kind}, ${providerCluster(ext)})`);
      else if (custom)
        own.push(
          `extension provider "${provider ?? ''}" is not configured in MeshConfig extensionProviders (or CUSTOM policies on this workload name different providers): istiod then denies what the rules match`,
        );
      return {
        namespace: meta.namespace,
        name: meta.name,
        action: a.action,
        dryRun: a.dryRun,
        ...(provider ? { provider } : {}),
        reason: a.reason,
        rules,
        notes: own,
      };
    });
  return {
    policies,
    notApplied: sel.notApplied.map((n) => ({ namespace: n.policy.meta.namespace, name: n.policy.meta.name, reason: n.reason })),
    mtls: { inbound: eff.inbound, clusters: eff.clusters },
  };
}
