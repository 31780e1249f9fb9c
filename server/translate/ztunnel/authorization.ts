// AuthorizationPolicy / PeerAuthentication → istio.security.Authorization as istiod sends them to ztunnel
// (pilot/pkg/serviceregistry/ambient/authorization.go convertAuthorizationPolicy, handleRule, stringToMatch,
// stringToServiceAccountMatch, stringToPort, stringToIP; policies.go PolicyCollections DefaultPolicy).
import type { AuthorizationPolicySpec, AuthzRule } from '../../model/authz';
import type { IstioConfig, LoadError } from '../../model/mesh';
import { base64, ipBytes } from './ip';

type Json = Record<string, unknown>;

/** authorization.go staticStrictPolicyName. */
export const STATIC_STRICT_POLICY = 'istio_converted_static_strict';

/** The result of converting one policy: the Authorization ztunnel gets (if any) and istiod's status message (if any). */
export interface ConvertedPolicy {
  authorization?: Json;
  /** istiod's PolicyBindingStatus message (e.g. the HTTP-attributes warning); reported as a finding. */
  message?: string;
}

/** stringToMatch: `*` → presence, `*x` → suffix, `x*` → prefix, else exact. */
export function stringToMatch(values: readonly string[] | undefined): Json[] {
  return (values ?? []).map((v) => {
    if (v === '*') return { presence: {} };
    if (v.startsWith('*')) return { suffix: v.slice(1) };
    if (v.endsWith('*')) return { prefix: v.slice(0, -1) };
    return { exact: v };
  });
}

/** stringToServiceAccountMatch: `ns/sa`, or `sa` in the policy's namespace. */
export function stringToServiceAccountMatch(values: readonly string[] | undefined, ns: string): Json[] {
  return (values ?? []).map((v) => {
    const i = v.indexOf('/');
    return i >= 0 ? { namespace: v.slice(0, i), serviceAccount: v.slice(i + 1) } : { namespace: ns, serviceAccount: v };
  });
}

/** stringToPort: decimal ports ≤ 65535; anything else is dropped. */
export function stringToPort(values: readonly string[] | undefined): number[] {
  const out: number[] = [];
  for (const v of values ?? []) {
    if (!/^\d+$/.test(v)) continue;
    const n = Number(v);
    if (n <= 65535) out.push(n);
  }
  return out;
}

/** stringToIP: an IP (full-length prefix) or a CIDR; unparsable entries are dropped. */
export function stringToIP(values: readonly string[] | undefined): Json[] {
  const out: Json[] = [];
  for (const v of values ?? []) {
    if (!v) continue;
    const slash = v.indexOf('/');
    const b = ipBytes(slash >= 0 ? v.slice(0, slash) : v);
    if (!b) continue;
    let length = b.length * 8;
    if (slash >= 0) {
      const bits = v.slice(slash + 1);
      if (!/^\d+$/.test(bits) || Number(bits) > length) continue;
      length = Number(bits);
    }
    out.push({ address: base64(b), length });
  }
  return out;
}

/** l4WhenAttributes: the `when` keys ztunnel can enforce. */
const L4_WHEN = new Set(['source.ip', 'source.namespace', 'source.principal', 'destination.ip', 'destination.port']);

/** Drops empty lists (proto3 JSON leaves out empty repeated fields). */
function compact(m: Record<string, unknown[]>): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(m)) if (v.length) out[k] = v;
  return out;
}

/** handleRule: the L4 parts of one rule as ANDed Rules, and the HTTP attributes it named. */
function handleRule(action: 'ALLOW' | 'DENY', rule: AuthzRule, ns: string): { rules: Json[] | undefined; l7: string[] } {
  const l7: string[] = [];
  const toMatches = (rule.to ?? []).map((t) => {
    const op = t.operation ?? {};
    for (const k of ['hosts', 'notHosts', 'methods', 'notMethods', 'paths', 'notPaths'] as const) if (op[k]?.length) l7.push(k);
    return compact({ destinationPorts: stringToPort(op.ports), notDestinationPorts: stringToPort(op.notPorts) });
  });
  const fromMatches = (rule.from ?? []).map((f) => {
    const s = f.source ?? {};
    for (const k of ['remoteIpBlocks', 'notRemoteIpBlocks', 'requestPrincipals', 'notRequestPrincipals'] as const)
      if (s[k]?.length) l7.push(k);
    return compact({
      namespaces: stringToMatch(s.namespaces),
      notNamespaces: stringToMatch(s.notNamespaces),
      principals: stringToMatch(s.principals),
      notPrincipals: stringToMatch(s.notPrincipals),
      sourceIps: stringToIP(s.ipBlocks),
      notSourceIps: stringToIP(s.notIpBlocks),
      serviceAccounts: stringToServiceAccountMatch(s.serviceAccounts, ns),
      notServiceAccounts: stringToServiceAccountMatch(s.notServiceAccounts, ns),
    });
  });
  const rules: Json[] = [];
  if (toMatches.length) rules.push({ matches: toMatches });
  if (fromMatches.length) rules.push({ matches: fromMatches });
  for (const w of rule.when ?? []) {
    const key = w.key ?? '';
    if (!L4_WHEN.has(key)) l7.push(key);
    const pick = <T>(k: string, invert: boolean, f: (v: readonly string[] | undefined) => T[]): T[] =>
      key === k ? f(invert ? w.notValues : w.values) : [];
    rules.push({
      matches: [
        compact({
          namespaces: pick('source.namespace', false, stringToMatch),
          notNamespaces: pick('source.namespace', true, stringToMatch),
          principals: pick('source.principal', false, stringToMatch),
          notPrincipals: pick('source.principal', true, stringToMatch),
          sourceIps: pick('source.ip', false, stringToIP),
          notSourceIps: pick('source.ip', true, stringToIP),
          destinationIps: pick('destination.ip', false, stringToIP),
          notDestinationIps: pick('destination.ip', true, stringToIP),
          destinationPorts: pick('destination.port', false, stringToPort),
          notDestinationPorts: pick('destination.port', true, stringToPort),
        }),
      ],
    });
  }
  // L7 rules never match for ALLOW; for DENY the L4 remainder is still sent.
  return { rules: action === 'ALLOW' && l7.length > 0 ? undefined : rules, l7 };
}

const isEmptyMatch = (m: Json) => Object.keys(m).length === 0;

/** hasEffectiveRules: some group fires at ztunnel (an empty group matches all; a clause of only empty matches never fires). */
function hasEffectiveRules(groups: Json[]): boolean {
  return groups.some((g) => {
    const rules = (g['rules'] as Json[] | undefined) ?? [];
    if (rules.length === 0) return true;
    return rules.every((c) => ((c['matches'] as Json[] | undefined) ?? []).some((m) => !isEmptyMatch(m)));
  });
}

/** convertAuthorizationPolicy. `undefined` authorization: not for ztunnel (targetRefs, CUSTOM/AUDIT, dry-run). */
export function convertAuthorizationPolicy(rootNamespace: string, p: IstioConfig<'AuthorizationPolicy'>): ConvertedPolicy {
  const spec: AuthorizationPolicySpec = p.spec;
  const dryRun = p.meta.annotations['istio.io/dry-run'];
  if (dryRun !== undefined && /^(1|t|T|true|TRUE|True)$/.test(dryRun)) {
    // AMBIENT_ENABLE_DRY_RUN_AUTHORIZATION_POLICY is off by default.
    return {
      message: `found policy "${p.meta.namespace}/${p.meta.name}" using dry-run annotation, but support for ambient dry-run authorizationPolicies isn't enabled`,
    };
  }
  if (spec.targetRef || (spec.targetRefs?.length ?? 0) > 0) return {}; // TargetRef is not intended for ztunnel
  const action = spec.action ?? 'ALLOW';
  if (action !== 'ALLOW' && action !== 'DENY') return { message: `ztunnel does not support the ${action} action` };
  const hasSelector = spec.selector !== undefined;
  const scope = hasSelector ? 'WORKLOAD_SELECTOR' : p.meta.namespace === rootNamespace ? 'GLOBAL' : 'NAMESPACE';
  const out: Json = { name: p.meta.name, namespace: p.meta.namespace };
  if (scope !== 'GLOBAL') out['scope'] = scope;
  if (action === 'DENY') out['action'] = 'DENY';
  const groups: Json[] = [];
  const l7 = new Set<string>();
  for (const rule of spec.rules ?? []) {
    const r = handleRule(action, rule, p.meta.namespace);
    if (r.rules !== undefined) groups.push(r.rules.length ? { rules: r.rules } : {});
    for (const k of r.l7) l7.add(k);
  }
  if (groups.length) out['groups'] = groups;
  if (l7.size === 0) return { authorization: out };
  const boilerplate =
    action === 'DENY' && !hasEffectiveRules(groups)
      ? 'After omitting unsupported HTTP attributes, this DENY policy has no enforceable rules at ztunnel and will have no effect. Deploy a waypoint proxy and use a targetRef to enforce this policy.'
      : action === 'DENY'
        ? 'DENY policy with HTTP attributes is enforced without the HTTP rules. This will be more restrictive than requested.'
        : 'Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.';
  return {
    authorization: out,
    message: `ztunnel does not support HTTP attributes (found: ${[...l7].sort().join(', ')}). In ambient mode you must use a waypoint proxy to enforce HTTP rules. ${boilerplate}`,
  };
}

/** policies.go DefaultPolicy: sent whenever any PeerAuthentication exists: DENY anything without a principal (plaintext). */
export function staticStrictPolicy(rootNamespace: string): Json {
  return {
    name: STATIC_STRICT_POLICY,
    namespace: rootNamespace,
    scope: 'WORKLOAD_SELECTOR',
    action: 'DENY',
    groups: [{ rules: [{ matches: [{ notPrincipals: [{ presence: {} }] }] }] }],
  };
}

/** A located finding for an istiod status message on a policy. */
export function policyMessage(p: IstioConfig<'AuthorizationPolicy'>, message: string): LoadError {
  return {
    severity: 'warning',
    message,
    object: `AuthorizationPolicy ${p.meta.namespace}/${p.meta.name}`,
    ...(p.origin.file !== undefined ? { file: p.origin.file } : {}),
    ...(p.origin.doc !== undefined ? { doc: p.origin.doc } : {}),
  };
}
