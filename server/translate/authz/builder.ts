// AuthorizationPolicies applied to a proxy → the RBAC filters istiod puts on its inbound chains
// (pilot/pkg/security/authz/builder/builder.go: New, build, buildHTTP, buildTCP, policyName, getBadCustomDenyRules;
// listener_inbound.go adds the CUSTOM filters first, then AUDIT, DENY, ALLOW).
//
// - HTTP chains get `envoy.filters.http.rbac` in the HCM, before the other HTTP filters; TCP chains get
//   `envoy.filters.network.rbac` (stat prefix `tcp.`) before tcp_proxy.
// - Each rule i of policy ns/name is the RBAC policy `ns[NS]-policy[NAME]-rule[i]`; a policy without rules is an
//   explicit never-matching policy; dry-run policies (`istio.io/dry-run: "true"`) go to shadow_rules.
// - On TCP chains an ALLOW rule using HTTP-only fields is skipped (so ALLOW matches less), a DENY/AUDIT rule
//   drops those fields (so it matches more): model.go checkError.
// - CUSTOM naming a MeshConfig ext_authz extension provider (all enforced CUSTOM policies of the proxy must name
//   the same one): an RBAC filter with the CUSTOM rules as DENY shadow_rules (stat prefix `istio_ext_authz_`),
//   then the provider's ext_authz filter (./extAuthz). An HTTP provider adds nothing on TCP chains.
// - CUSTOM naming an unknown provider (or differing providers): what istiod emits for a provider it cannot use,
//   a DENY policy named `istio-ext-authz-PROVIDER-…-deny-due-to-bad-CUSTOM-action` per rule.
import type { FilterJson } from '../../gen/envoy/config/listener/v3/listener_components_pb';
import type { PolicyJson, RBACJson } from '../../gen/envoy/config/rbac/v3/rbac_pb';
import type { HttpFilterJson } from '../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import { EXT } from '../../envoy/typeUrls';
import type { AuthorizationAction } from '../../model/authz';
import type { ExtensionProvider } from '../../model/extensionProviders';
import { EXT_AUTHZ_SHADOW_STAT_PREFIX, httpExtAuthzFilter, networkExtAuthzFilter } from './extAuthz';
import type { AppliedPolicy } from './select';
import { generatePolicy, MATCH_NEVER, SkippedRule } from './rule';

export const RBAC_HTTP_FILTER = 'envoy.filters.http.rbac';
export const RBAC_NETWORK_FILTER = 'envoy.filters.network.rbac';
export const RBAC_TCP_STAT_PREFIX = 'tcp.';
const EXT_AUTHZ_PREFIX = 'istio-ext-authz';
export const BAD_CUSTOM_SUFFIX = '-deny-due-to-bad-CUSTOM-action';

/** builder.go policyName. */
export function policyName(namespace: string, name: string, rule: number, customProvider?: string): string {
  const prefix = customProvider === undefined ? '' : customProvider ? `${EXT_AUTHZ_PREFIX}-${customProvider}-` : `${EXT_AUTHZ_PREFIX}-`;
  return `${prefix}ns[${namespace}]-policy[${name}]-rule[${rule}]`;
}

/** Provenance of an RBAC policy name: the AuthorizationPolicy and rule index it came from. */
export function parsePolicyName(n: string): { namespace: string; name: string; rule: number } | undefined {
  const m = /ns\[([^\]]*)\]-policy\[([^\]]*)\]-rule\[(\d+)\]/.exec(n);
  return m ? { namespace: m[1] as string, name: m[2] as string, rule: Number(m[3]) } : undefined;
}

/** A problem met while building (a skipped rule), for the proxy's error list. */
export interface AuthzBuildNote {
  policy: string;
  message: string;
}

interface Built {
  rules?: RBACJson;
  shadowRules?: RBACJson;
}

const rbac = (action: 'ALLOW' | 'DENY' | 'LOG'): RBACJson => (action === 'ALLOW' ? { policies: {} } : { action, policies: {} });

function build(
  policies: readonly AppliedPolicy[],
  action: 'ALLOW' | 'DENY' | 'LOG',
  forTCP: boolean,
  custom: boolean,
  notes: AuthzBuildNote[],
): Built | undefined {
  if (policies.length === 0) return undefined;
  const enforce = rbac(action);
  const shadow = rbac(action);
  let hasEnforce = false;
  let hasShadow = false;
  const ruleAction: AuthorizationAction = action === 'ALLOW' ? 'ALLOW' : action === 'LOG' ? 'AUDIT' : 'DENY';
  for (const ap of policies) {
    const { meta, spec } = ap.policy;
    const target = ap.dryRun ? shadow : enforce;
    if (ap.dryRun) hasShadow = true;
    else hasEnforce = true;
    const provider = custom ? (spec.provider?.name ?? '') : undefined;
    const set = target.policies as Record<string, PolicyJson>;
    (spec.rules ?? []).forEach((rule, i) => {
      const name = policyName(meta.namespace, meta.name, i, provider);
      try {
        set[name] = generatePolicy(rule, meta.namespace, forTCP, ruleAction);
      } catch (e) {
        if (!(e instanceof SkippedRule)) throw e;
        notes.push({
          policy: `${meta.namespace}/${meta.name}`,
          message: `rule[${i}] skipped on ${forTCP ? 'TCP' : 'HTTP'} chains: ${e.message}`,
        });
      }
    });
    if (!spec.rules || spec.rules.length === 0) set[policyName(meta.namespace, meta.name, 0, provider)] = MATCH_NEVER;
  }
  return { ...(hasEnforce ? { rules: sortPolicies(enforce) } : {}), ...(hasShadow ? { shadowRules: sortPolicies(shadow) } : {}) };
}

/** Maps are written with sorted keys (as Go's proto JSON/YAML marshalling does), so output is deterministic. */
function sortPolicies(r: RBACJson): RBACJson {
  const p = r.policies ?? {};
  return {
    ...r,
    policies: Object.fromEntries(
      Object.keys(p)
        .sort()
        .map((k) => [k, p[k] as PolicyJson]),
    ),
  };
}

const shadowPrefix = (action: 'ALLOW' | 'DENY' | 'LOG') =>
  action === 'ALLOW' ? 'istio_dry_run_allow_' : action === 'DENY' ? 'istio_dry_run_deny_' : undefined;

type ExtAuthz = NonNullable<ExtensionProvider['extAuthz']>;

/** One RBAC filter's config; `extAuthz` is the provider whose ext_authz filter follows it. */
export interface RbacConfig {
  rules?: RBACJson;
  shadowRules?: RBACJson;
  shadowRulesStatPrefix?: string;
  extAuthz?: ExtAuthz;
}

/** builder.go getExtAuthz: the one ext_authz provider every enforced CUSTOM policy names, when configured. */
export function customProvider(customs: readonly AppliedPolicy[], providers: readonly ExtensionProvider[] = []): ExtAuthz | undefined {
  const names = new Set(customs.filter((p) => !p.dryRun).map((p) => p.policy.spec.provider?.name ?? ''));
  if (names.size !== 1) return undefined;
  const [name] = names;
  return providers.find((p) => p.name === name)?.extAuthz;
}

/** The RBAC configs in filter order (CUSTOM, AUDIT, DENY, ALLOW), before wrapping as HTTP or network filters. */
export function rbacConfigs(
  applied: readonly AppliedPolicy[],
  forTCP: boolean,
  notes: AuthzBuildNote[] = [],
  providers: readonly ExtensionProvider[] = [],
): RbacConfig[] {
  const by = (a: AuthorizationAction) => applied.filter((p) => p.action === a);
  const out: RbacConfig[] = [];
  // Dry-run CUSTOM policies (istiod's provider shadow rules) are left out of the CUSTOM filter.
  const customs = by('CUSTOM');
  if (customs.length > 0) {
    const enforced = customs.filter((p) => !p.dryRun);
    const custom = build(enforced, 'DENY', forTCP, true, notes);
    const ext = customProvider(customs, providers);
    if (ext && forTCP && ext.kind === 'http') {
      for (const p of enforced)
        notes.push({
          policy: `${p.policy.meta.namespace}/${p.policy.meta.name}`,
          message: `CUSTOM action with HTTP provider ${p.policy.spec.provider?.name} ignored on TCP chains`,
        });
    } else if (ext) {
      out.push({
        shadowRules: custom?.rules ?? { action: 'DENY', policies: {} },
        shadowRulesStatPrefix: EXT_AUTHZ_SHADOW_STAT_PREFIX,
        extAuthz: ext,
      });
    } else {
      // getBadCustomDenyRules: the provider is unknown, so every enforced CUSTOM rule denies.
      const policies = Object.fromEntries(Object.entries(custom?.rules?.policies ?? {}).map(([k, v]) => [k + BAD_CUSTOM_SUFFIX, v]));
      out.push({ rules: { action: 'DENY', policies } });
    }
  }
  for (const [a, action] of [
    ['AUDIT', 'LOG'],
    ['DENY', 'DENY'],
    ['ALLOW', 'ALLOW'],
  ] as const) {
    const b = build(by(a), action, forTCP, false, notes);
    if (!b) continue;
    const prefix = b.shadowRules ? shadowPrefix(action) : undefined;
    out.push({ ...b, ...(prefix ? { shadowRulesStatPrefix: prefix } : {}) });
  }
  return out;
}

/** The HTTP filters for an inbound HCM. */
export function buildHttpRbacFilters(
  applied: readonly AppliedPolicy[],
  notes?: AuthzBuildNote[],
  providers?: readonly ExtensionProvider[],
): HttpFilterJson[] {
  return rbacConfigs(applied, false, notes, providers).flatMap(({ extAuthz, ...c }) => [
    { name: RBAC_HTTP_FILTER, typedConfig: { '@type': EXT.rbacHttp, ...c } },
    ...(extAuthz ? [httpExtAuthzFilter(extAuthz)] : []),
  ]);
}

/** The network filters for an inbound TCP chain, placed before tcp_proxy. */
export function buildNetworkRbacFilters(
  applied: readonly AppliedPolicy[],
  notes?: AuthzBuildNote[],
  providers?: readonly ExtensionProvider[],
): FilterJson[] {
  return rbacConfigs(applied, true, notes, providers).flatMap(({ extAuthz, ...c }) => {
    const ext = extAuthz ? networkExtAuthzFilter(extAuthz) : undefined;
    return [
      { name: RBAC_NETWORK_FILTER, typedConfig: { '@type': EXT.rbacNetwork, ...c, statPrefix: RBAC_TCP_STAT_PREFIX } },
      ...(ext ? [ext] : []),
    ];
  });
}
