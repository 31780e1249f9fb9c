// The L4 AuthorizationPolicy a destination ztunnel enforces for one workload, evaluated on a request: the
// policies that select the pod as they would a sidecar (selector / namespace-wide / root namespace; never targetRefs,
// which only waypoints and gateways take: policyattachment.go), reduced to what ztunnel can see — istiod's TCP RBAC
// (an ALLOW rule with HTTP-only attributes matches nothing, a DENY rule keeps its L4 part), as for a sidecar's TCP
// chain. Walked with the simulator's own RBAC engine on a one-chain listener. Pure.
import { canonicalJson } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import type { MeshSnapshot, PodModel, ProxyModel } from '../model/mesh';
import { simulate } from '../simulate/index';
import type { SimAuthorization, SimRequest } from '../simulate/types';
import { buildNetworkRbacFilters } from '../translate/authz/builder';
import { selectPolicies } from '../translate/authz/select';
import { tcpProxyTo } from '../translate/xds/listeners/filters';

export interface ZtunnelPolicyResult {
  /** `ns/name` of the policies in force, in evaluation order. */
  policies: string[];
  authorization?: SimAuthorization;
  denied: boolean;
}

/** The pod as policy selection sees a workload. */
const asWorkload = (pod: PodModel): ProxyModel => ({
  id: `${pod.name}.${pod.namespace}`,
  type: 'sidecar',
  name: pod.name,
  namespace: pod.namespace,
  labels: pod.labels,
  ips: [pod.ip],
  serviceAccount: pod.serviceAccount,
  locality: pod.locality,
});

export function ztunnelPolicy(snapshot: MeshSnapshot, pod: PodModel, request: SimRequest, rootNamespace: string): ZtunnelPolicyResult {
  const applied = selectPolicies(snapshot, asWorkload(pod), rootNamespace).applied;
  if (applied.length === 0) return { policies: [], denied: false };
  const filters = [...buildNetworkRbacFilters(applied), tcpProxyTo('destination')];
  const listener = canonicalJson(TYPE.listener, { name: 'ztunnel_inbound', filterChains: [{ filters }] });
  const r = simulate(
    { listeners: [listener], routes: [], clusters: [], endpoints: [] },
    { ...request, mode: 'gateway', listener: 'ztunnel_inbound', protocol: 'tcp', tls: 'mtls' },
  );
  return {
    policies: applied.map((p) => `${p.policy.meta.namespace}/${p.policy.meta.name}`),
    ...(r.authorization ? { authorization: r.authorization } : {}),
    denied: r.error === 'RBAC: access denied',
  };
}
