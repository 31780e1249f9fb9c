// The AuthorizationPolicies a waypoint enforces on one chain (policyattachment.go WorkloadPolicyMatcher.ShouldAttachPolicy
// for a waypoint, authz.NewBuilderForService): only policies with targetRefs — a Service the chain serves (same
// namespace), the waypoint's Gateway (same namespace), or GatewayClass istio-waypoint from the root namespace.
// Selector-based and namespace-wide policies never attach to a waypoint (ztunnel enforces those). Pure.
import type { ServiceModel } from '../../../model/mesh';
import { type AppliedPolicy, GATEWAY_NAME_LABEL, isDryRun } from '../../authz/select';
import type { ProxyView } from '../../view/types';

export function waypointPolicies(view: ProxyView, svc: ServiceModel | undefined): AppliedPolicy[] {
  const { proxy, options } = view;
  const gateway = proxy.labels[GATEWAY_NAME_LABEL];
  const out: AppliedPolicy[] = [];
  for (const p of view.snapshot.authorizationPolicies) {
    const refs = [...(p.spec.targetRef ? [p.spec.targetRef] : []), ...(p.spec.targetRefs ?? [])];
    const ns = p.meta.namespace;
    const reason = refs
      .map((r) => {
        const group = r.group ?? '';
        if (svc && r.kind === 'Service' && group === '' && svc.registry === 'Kubernetes' && r.name === svc.name && ns === svc.namespace)
          return `targetRef Service/${r.name}`;
        if (
          svc &&
          r.kind === 'ServiceEntry' &&
          group === 'networking.istio.io' &&
          svc.registry === 'External' &&
          r.name === svc.name &&
          ns === svc.namespace
        )
          return `targetRef ServiceEntry/${r.name}`;
        if (
          ns === options.rootNamespace &&
          r.kind === 'GatewayClass' &&
          group === 'gateway.networking.k8s.io' &&
          r.name === 'istio-waypoint'
        )
          return 'targetRef GatewayClass/istio-waypoint';
        if (ns !== proxy.namespace || (r.namespace && r.namespace !== proxy.namespace)) return undefined;
        if (r.kind === 'Gateway' && group === 'gateway.networking.k8s.io' && gateway !== undefined && r.name === gateway)
          return `targetRef Gateway/${r.name}`;
        return undefined;
      })
      .find((x) => x !== undefined);
    if (reason) out.push({ policy: p, action: p.spec.action ?? 'ALLOW', reason, dryRun: isDryRun(p) });
  }
  return out;
}
