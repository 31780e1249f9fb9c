// AuthorizationPolicies under the ambient profile (meshscope codes; Istio has no analyzer for these):
// - MSC0204 ZtunnelIgnoresHttpAttributes: a selector policy (no targetRefs) that applies to ambient pods is
//   enforced by ztunnel, which knows L4 only. istiod drops the HTTP attributes (authorization.go
//   convertAuthorizationPolicy / handleRule: an ALLOW rule with one is left out, a DENY keeps its L4 part) and
//   writes the message quoted here on the policy's ZtunnelAccepted condition with status True, so Istio's
//   ConditionAnalyzer never shows it. The path is the first HTTP attribute.
// - MSC0205 SidecarBypassesWaypointPolicy: a targetRefs policy bound to a waypoint (policies.go) is enforced by
//   that waypoint only; sidecars send straight to the destination pods, bypassing destination waypoints
//   (sidecar_interop.go: only ingress / east-west gateways are sent through waypoints), so the policy is not
//   applied to requests from sidecar pods — the migration risk of istio#51445.
import type { AuthorizationPolicySpec } from '../model/authz';
import type { MeshSnapshot, ServiceModel } from '../model/mesh';
import type { Problem } from '../model/problem';
import { convertAuthorizationPolicy } from '../translate/ztunnel/authorization';
import { resolveTarget, targetRefsOf } from './ambientConditions';
import { policyAmbientPods, servesAmbient, serviceObject, someOf } from './ambientSupport';
import { report } from './messages';
import type { Analyzer } from './types';

const L4_WHEN = new Set(['source.ip', 'source.namespace', 'source.principal', 'destination.ip', 'destination.port']);
const OPERATION_L7 = ['hosts', 'notHosts', 'methods', 'notMethods', 'paths', 'notPaths'] as const;
const SOURCE_L7 = ['remoteIpBlocks', 'notRemoteIpBlocks', 'requestPrincipals', 'notRequestPrincipals'] as const;

/** The field path of the first HTTP attribute handleRule finds (to, then from, then when, rule by rule). */
export function firstHttpAttributePath(spec: AuthorizationPolicySpec): string | undefined {
  for (const [i, rule] of (spec.rules ?? []).entries()) {
    for (const [j, to] of (rule.to ?? []).entries())
      for (const k of OPERATION_L7) if (to.operation?.[k]?.length) return `spec.rules[${i}].to[${j}].operation.${k}`;
    for (const [j, from] of (rule.from ?? []).entries())
      for (const k of SOURCE_L7) if (from.source?.[k]?.length) return `spec.rules[${i}].from[${j}].source.${k}`;
    for (const [j, w] of (rule.when ?? []).entries()) if (!L4_WHEN.has(w.key ?? '')) return `spec.rules[${i}].when[${j}].key`;
  }
  return undefined;
}

/** The Services a bound targetRef puts behind the waypoint(s) that enforce the policy. */
function targetServices(s: MeshSnapshot, kind: string, ns: string, name: string, waypoint: string): ServiceModel[] {
  const a = s.ambient!;
  const boundTo = (svc: ServiceModel, w?: string) => {
    const b = a.services.get(`${svc.namespace}/${svc.hostname}`)?.waypoint;
    return b !== undefined && (w === undefined || b === w);
  };
  switch (kind) {
    case 'Service':
    case 'ServiceEntry':
      return s.services.filter(
        (x) => x.namespace === ns && x.name === name && (x.ref.kind === 'ServiceEntry') === (kind === 'ServiceEntry'),
      );
    case 'Gateway':
      return s.services.filter((x) => boundTo(x, waypoint));
    default:
      return s.services.filter((x) => boundTo(x));
  }
}

export const ambientPolicyAnalyzer: Analyzer = {
  meta: {
    name: 'ambient.AuthorizationPolicyAnalyzer',
    description:
      'Checks where AuthorizationPolicies are enforced under the ambient profile (ztunnel: L4 only; waypoints: not for sidecar callers)',
    inputs: ['AuthorizationPolicy', 'Pod', 'Service', 'Gateway.gateway.networking.k8s.io'],
    ambientOnly: true,
  },
  analyze(s, ctx) {
    const a = s.ambient;
    if (!a) return [];
    const root = ctx.options.rootNamespace;
    const out: Problem[] = [];
    const sidecars = s.pods.filter((p) => p.proxy === 'sidecar').map((p) => `${p.namespace}/${p.name}`);
    for (const ap of s.authorizationPolicies) {
      const targets = targetRefsOf(ap.spec);
      if (targets.length === 0) {
        const conv = convertAuthorizationPolicy(root, ap);
        if (!conv.authorization || !conv.message) continue;
        const pods = policyAmbientPods(s, ap, root);
        if (pods.length === 0) continue;
        const on = `${pods.length} ambient pod(s) (${someOf(pods.map((p) => `${p.namespace}/${p.name}`))})`;
        out.push(report('ZtunnelIgnoresHttpAttributes', ap, firstHttpAttributePath(ap.spec), on, conv.message));
        continue;
      }
      if (sidecars.length === 0) continue;
      for (const t of targets) {
        const b = resolveTarget(s, ap, t.ref, t.path, root);
        if (!b.bound) continue;
        const waypoint = b.message.replace(/^bound to /, '');
        const ns = t.ref.namespace || ap.meta.namespace;
        const svcs = targetServices(s, t.ref.kind, ns, t.ref.name, waypoint).filter((x) => servesAmbient(s, a, x));
        if (svcs.length === 0) continue;
        out.push(
          report('SidecarBypassesWaypointPolicy', ap, t.path, waypoint, sidecars.length, someOf(svcs.map(serviceObject)), someOf(sidecars)),
        );
      }
    }
    return out;
  },
};
