// IST0171 NegativeConditionStatus for the conditions istiod's ambient registry writes — Istio's
// conditions.ConditionAnalyzer (analyzers/conditions/conditions.go negativeConditionsToReport: Service /
// ServiceEntry `istio.io/WaypointBound` False; AuthorizationPolicy `ZtunnelAccepted` False and `WaypointAccepted`
// False or PartiallyInvalid). istioctl reads the status istiod wrote; meshscope computes it as istiod would:
// - WaypointBound (model.ServiceInfo.GetConditions): the binding error of fetchWaypointForService, with
//   status.go's reason and message;
// - WaypointAccepted (policies.go WaypointPolicyStatusCollection + model.flattenConditions): each targetRef of a
//   policy resolved as istiod resolves it (GatewayClass in the root namespace with the mesh controller, a Gateway
//   that is a waypoint, a Service / ServiceEntry bound to a waypoint);
// - ZtunnelAccepted (policies.go AuthzDerivedPolicies: Bound = a policy was produced): the CUSTOM / AUDIT actions
//   and dry-run policies ztunnel is not sent (authorization.go convertAuthorizationPolicy).
// Deviations, for file inputs that carry no status: a targetRef to a Gateway that is not of class istio-waypoint
// and has no status address is not reported (an ingress Gateway; istiod would know its address), and
// ZtunnelAccepted is reported only for a policy that selects an ambient pod (istiod writes it on every policy).
import { USE_WAYPOINT } from '../model/ambient/bindings';
import type { AuthorizationPolicySpec, PolicyTargetReference } from '../model/authz';
import { GATEWAY_CONTROLLER, MESH_CONTROLLER, WAYPOINT_CLASS } from '../model/gatewayapi/listeners';
import type { IstioConfig, MeshSnapshot } from '../model/mesh';
import type { Problem } from '../model/problem';
import { convertAuthorizationPolicy } from '../translate/ztunnel/authorization';
import { istiodBindingStatus, labelPath, policyAmbientPods, problem, serviceObject } from './ambientSupport';
import { report } from './messages';
import type { Analyzer } from './types';

/** model.GetTargetRefs: targetRef when set, else targetRefs; with each one's field path. */
export function targetRefsOf(spec: AuthorizationPolicySpec): { ref: PolicyTargetReference; path: string }[] {
  if (spec.targetRef) return [{ ref: spec.targetRef, path: 'spec.targetRef' }];
  return (spec.targetRefs ?? []).map((ref, i) => ({ ref, path: `spec.targetRefs[${i}]` }));
}

interface Binding {
  ancestor: string;
  path: string;
  bound: boolean;
  reason: string;
  message: string;
  /** The target cannot be judged from the inputs (see the header): left out. */
  unknown?: boolean;
}

function classController(s: MeshSnapshot, name: string): string | undefined {
  const declared = s.gatewayApi?.gatewayClasses.find((c) => c.name === name);
  if (declared) return declared.controllerName;
  // istiod's built-in classes (classinfo.go GetBuiltinGatewayClasses; istio-waypoint under the ambient profile).
  return name === WAYPOINT_CLASS ? MESH_CONTROLLER : name === 'istio' ? GATEWAY_CONTROLLER : undefined;
}

/** One targetRef as policies.go resolves it. */
export function resolveTarget(
  s: MeshSnapshot,
  ap: IstioConfig<'AuthorizationPolicy'>,
  ref: PolicyTargetReference,
  path: string,
  root: string,
): Binding {
  const a = s.ambient!;
  const ns = ref.namespace || ap.meta.namespace;
  const key = `${ns}/${ref.name}`;
  const ancestor = `${ref.kind}.${ref.group || 'core'}:${key}`;
  const out = (bound: boolean, reason: string, message: string, unknown = false): Binding => ({
    ancestor,
    path,
    bound,
    reason,
    message,
    ...(unknown ? { unknown } : {}),
  });
  switch (ref.kind) {
    case 'GatewayClass': {
      if (ns !== root)
        return out(false, 'Invalid', `AuthorizationPolicy must be in the root namespace \`${root}\` when referencing a GatewayClass`);
      const controller = classController(s, ref.name);
      if (controller === undefined) return out(false, 'TargetNotFound', 'not bound');
      if (controller !== MESH_CONTROLLER)
        return out(false, 'Invalid', `GatewayClass must use controller name \`${MESH_CONTROLLER}\` for waypoints`);
      return out(true, 'Accepted', `bound to ${ref.name}`);
    }
    case 'Gateway': {
      if (a.waypoints.has(key)) return out(true, 'Accepted', `bound to ${key}`);
      const gw = s.gatewayApi?.gateways.find((g) => g.namespace === ns && g.name === ref.name);
      return out(false, 'TargetNotFound', 'not bound', gw !== undefined && gw.className !== WAYPOINT_CLASS);
    }
    case 'Service':
    case 'ServiceEntry': {
      const kind = ref.kind;
      const svcs = s.services.filter(
        (x) => x.namespace === ns && x.name === ref.name && (x.ref.kind === 'ServiceEntry') === (kind === 'ServiceEntry'),
      );
      if (svcs.length === 0) return out(false, 'TargetNotFound', `${kind} ${key} was not found`);
      const bound = svcs.map((x) => a.services.get(`${x.namespace}/${x.hostname}`)?.waypoint).find((w) => w !== undefined);
      return bound
        ? out(true, 'Accepted', `bound to ${bound}`)
        : out(false, 'AncestorNotBound', `${kind} ${key} is not bound to a waypoint`);
    }
    default:
      return out(false, 'unknown', 'not bound');
  }
}

/** model.flattenConditions: one condition as it is; several → Accepted / PartiallyInvalid / Invalid. */
export function flattenConditions(bs: readonly Binding[]): { bound: boolean; reason: string; message: string } {
  if (bs.length === 1) return { bound: bs[0]!.bound, reason: bs[0]!.reason, message: bs[0]!.message };
  const bound = bs.some((b) => b.bound);
  const unbound = bs.filter((b) => !b.bound).map((b) => b.ancestor);
  const reason = bound ? (unbound.length ? 'PartiallyInvalid' : 'Accepted') : 'Invalid';
  return { bound, reason, message: unbound.length ? `Invalid targetRefs: ${unbound.join(', ')}` : '' };
}

export const ambientConditionAnalyzer: Analyzer = {
  meta: {
    name: 'ambient.ConditionAnalyzer',
    description:
      'Checks for negative status conditions istiod writes under the ambient profile (as conditions.ConditionAnalyzer reports them)',
    inputs: ['Service', 'ServiceEntry', 'AuthorizationPolicy'],
    ambientOnly: true,
  },
  analyze(s, ctx) {
    const a = s.ambient;
    if (!a) return [];
    const out: Problem[] = [];
    const root = ctx.options.rootNamespace;

    for (const svc of s.services) {
      const b = a.services.get(`${svc.namespace}/${svc.hostname}`);
      const st = b && istiodBindingStatus(b, 'service');
      if (!b || !st) continue;
      const se =
        svc.ref.kind === 'ServiceEntry'
          ? s.serviceEntries.find((c) => c.meta.namespace === svc.namespace && c.meta.name === svc.name)
          : undefined;
      out.push(
        problem(
          'NegativeConditionStatus',
          serviceObject(svc),
          b.source === 'service' ? labelPath(USE_WAYPOINT) : 'status.conditions',
          se?.origin ?? svc.origin,
          'istio.io/WaypointBound',
          st.reason,
          st.message,
        ),
      );
    }

    for (const ap of s.authorizationPolicies) {
      const targets = targetRefsOf(ap.spec);
      if (targets.length > 0) {
        const bs = targets.map((t) => resolveTarget(s, ap, t.ref, t.path, root));
        if (bs.some((b) => b.unknown)) continue;
        const c = flattenConditions(bs);
        if (c.bound && c.reason !== 'PartiallyInvalid') continue;
        const first = bs.find((b) => !b.bound)!;
        out.push(report('NegativeConditionStatus', ap, first.path, 'WaypointAccepted', c.reason, c.message));
        continue;
      }
      const conv = convertAuthorizationPolicy(root, ap);
      if (conv.authorization || !conv.message) continue;
      if (policyAmbientPods(s, ap, root).length === 0) continue;
      const dryRun = conv.message.includes('dry-run');
      out.push(
        report(
          'NegativeConditionStatus',
          ap,
          dryRun ? 'metadata.annotations["istio.io/dry-run"]' : 'spec.action',
          'ZtunnelAccepted',
          'UnsupportedValue',
          conv.message,
        ),
      );
    }
    return out;
  },
};
