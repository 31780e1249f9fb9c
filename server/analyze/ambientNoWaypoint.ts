// MSC0203 NoWaypointForL7Config (meshscope code; only under the ambient profile): a VirtualService (bound to the
// mesh), a DestinationRule (without workloadSelector) or a GAMMA HTTPRoute / GRPCRoute (a Service or ServiceEntry
// parent) for a service whose pods are in the ambient mesh but which has no waypoint. Ambient clients reach it
// through ztunnel, which applies L4 policy only; routes and traffic policies are applied by a waypoint
// (listener_waypoint.go) or by a sidecar / gateway client. For a route, istiod says the same on the parent's
// `ResolvedWaypoints` condition (pilot/pkg/config/kube/gateway/conditions.go WaypointErrorMsgMissingLabel, written
// with status True, so Istio's ConditionAnalyzer never reports it); its text is quoted when the label is missing.
// The reason is the ambient index's (server/model/ambient/bindings.ts): no label, opted out, waypoint not ready,
// attachment denied, wrong waypoint-for.
import type { ServiceBinding } from '../model/ambient/types';
import type { MeshSnapshot, Origin, ServiceModel } from '../model/mesh';
import type { Problem } from '../model/problem';
import { problem, servesAmbient, serviceObject } from './ambientSupport';
import { toFqdn } from './hosts';
import type { Analyzer } from './types';

/** conditions.go WaypointErrorMsgMissingLabel. */
export const MISSING_LABEL_MESSAGE =
  'istio.io/use-waypoint label missing from parent and parent namespace; in ambient mode, route will not be respected';

/** The service's binding when it serves ambient pods and has no waypoint (it is no waypoint itself). */
function unboundAmbient(s: MeshSnapshot, svc: ServiceModel): ServiceBinding | undefined {
  const a = s.ambient!;
  const b = a.services.get(`${svc.namespace}/${svc.hostname}`);
  if (!b || b.waypoint !== undefined || b.skip?.reason === 'IsWaypoint') return undefined;
  return servesAmbient(s, a, svc) ? b : undefined;
}

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute']);

export const ambientNoWaypointAnalyzer: Analyzer = {
  meta: {
    name: 'ambient.NoWaypointAnalyzer',
    description: 'Checks for L7 configuration (routes, traffic policies) of ambient services that have no waypoint',
    inputs: ['VirtualService', 'DestinationRule', 'HTTPRoute', 'GRPCRoute', 'Service', 'Pod'],
    ambientOnly: true,
  },
  analyze(s, ctx) {
    if (!s.ambient) return [];
    const suffix = ctx.options.domainSuffix;
    const out: Problem[] = [];
    const lookup = (ns: string, host: string) => s.servicesByHost.get(toFqdn(ns, host, suffix)) ?? [];
    const flag = (what: string, object: string, path: string, origin: Origin, svc: ServiceModel, b: ServiceBinding, route = false) =>
      out.push(
        problem(
          'NoWaypointForL7Config',
          object,
          path,
          origin,
          what,
          serviceObject(svc),
          route && b.skip?.reason === 'NoUseWaypoint' ? MISSING_LABEL_MESSAGE : (b.skip?.message ?? 'no waypoint'),
        ),
      );

    for (const vs of s.virtualServices) {
      const gws = vs.spec.gateways ?? [];
      if (gws.length > 0 && !gws.includes('mesh')) continue;
      (vs.spec.hosts ?? []).forEach((h, i) => {
        for (const svc of lookup(vs.meta.namespace, h)) {
          const b = unboundAmbient(s, svc);
          if (b) flag('this VirtualService', `VirtualService ${vs.meta.namespace}/${vs.meta.name}`, `spec.hosts[${i}]`, vs.origin, svc, b);
        }
      });
    }

    for (const dr of s.destinationRules) {
      if (dr.spec.workloadSelector) continue;
      for (const svc of lookup(dr.meta.namespace, dr.spec.host)) {
        const b = unboundAmbient(s, svc);
        if (b) flag('this DestinationRule', `DestinationRule ${dr.meta.namespace}/${dr.meta.name}`, 'spec.host', dr.origin, svc, b);
      }
    }

    for (const r of s.gatewayApi?.routes ?? []) {
      if (!ROUTE_KINDS.has(r.kind)) continue;
      r.parents.forEach((p, i) => {
        const ref = p.parentRef;
        const isService = ref.kind === 'Service' && (ref.group === '' || ref.group === 'core');
        const isServiceEntry = ref.kind === 'ServiceEntry' && ref.group === 'networking.istio.io';
        if (!isService && !isServiceEntry) return;
        const ns = ref.namespace ?? r.namespace;
        const svcs = s.services.filter(
          (x) => x.namespace === ns && x.name === ref.name && (x.ref.kind === 'ServiceEntry') === isServiceEntry,
        );
        for (const svc of svcs) {
          const b = unboundAmbient(s, svc);
          if (b) flag(`this ${r.kind}`, `${r.kind} ${r.namespace}/${r.name}`, `spec.parentRefs[${i}]`, r.origin, svc, b, true);
        }
      });
    }
    return out;
  },
};
