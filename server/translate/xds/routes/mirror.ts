// mirror / mirrors → RouteAction.request_mirror_policies (istio route.go MirrorPercent,
// MirrorPercentByPolicy, TranslateRequestMirrorPolicy).
import type { RuntimeFractionalPercentJson } from '../../../gen/envoy/config/core/v3/base_pb';
import type { RouteAction_RequestMirrorPolicyJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRoute } from '../../../model/istio';
import { str, type RouteContext } from './context';
import { destinationCluster } from './destination';
import { integerToFractional, percentToFractional } from './percent';

/** mirrorPercentage (Percent) > mirrorPercent (int) > 100%; an explicit 0 disables mirroring. */
export function mirrorPercent(r: Pick<HTTPRoute, 'mirrorPercentage' | 'mirrorPercent'>): RuntimeFractionalPercentJson | undefined {
  if (r.mirrorPercentage !== undefined) {
    const v = Number(r.mirrorPercentage?.value ?? 0);
    return v > 0 ? { defaultValue: percentToFractional(v) } : undefined;
  }
  if (r.mirrorPercent !== undefined) {
    const v = Number(r.mirrorPercent);
    return v > 0 ? { defaultValue: integerToFractional(v) } : undefined;
  }
  return { defaultValue: integerToFractional(100) };
}

const policy = (cluster: string, fraction: RuntimeFractionalPercentJson): RouteAction_RequestMirrorPolicyJson => ({
  cluster,
  runtimeFraction: fraction,
  traceSampled: false,
});

export function mirrorPolicies(r: HTTPRoute, ctx: RouteContext): RouteAction_RequestMirrorPolicyJson[] {
  const out: RouteAction_RequestMirrorPolicyJson[] = [];
  if (!r.mirror && !Array.isArray(r.mirrors)) return out; // the common case: no closure, no work
  if (r.mirror) {
    const mp = mirrorPercent(r);
    if (mp)
      out.push(
        policy((ctx.destinationCluster ?? destinationCluster)(r.mirror, ctx.serviceLookup(str(r.mirror.host) ?? ''), ctx.listenerPort), mp),
      );
  }
  for (const m of Array.isArray(r.mirrors) ? r.mirrors : []) {
    if (!m?.destination) continue;
    const mp = m.percentage !== undefined ? mirrorPercent({ mirrorPercentage: m.percentage }) : mirrorPercent({});
    if (mp)
      out.push(
        policy(
          (ctx.destinationCluster ?? destinationCluster)(m.destination, ctx.serviceLookup(str(m.destination.host) ?? ''), ctx.listenerPort),
          mp,
        ),
      );
  }
  return out;
}
