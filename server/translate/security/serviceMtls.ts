// What a client infers about a service's server side (model/push_context.go BestEffortInferServiceMTLSMode,
// ServiceAccounts / initServiceAccounts; spiffe identities `spiffe://<trust domain>/ns/NS/sa/SA`).
import type { TrafficPolicy } from '../../model/istio';
import type { EndpointModel, MeshSnapshot, PodModel, ServiceModel } from '../../model/mesh';
import { DEFAULT_TRUST_DOMAIN } from './inboundTls';
import { type ModeWithSource, type MtlsMode, namespaceMtlsMode } from './peerAuthentication';

const TLS_MODE_LABEL = 'security.istio.io/tlsMode';

export const spiffeId = (namespace: string, serviceAccount: string, trustDomain = DEFAULT_TRUST_DOMAIN): string =>
  serviceAccount.startsWith('spiffe://') ? serviceAccount : `spiffe://${trustDomain}/ns/${namespace}/sa/${serviceAccount}`;

/** An endpoint's tlsMode as EDS labels it (the pod label, else `istio` for injected pods: see endpoints/localityEndpoints.ts). */
export function endpointTlsMode(ep: EndpointModel, pods: ReadonlyMap<string, PodModel>): string {
  const pod = ep.podName !== undefined ? pods.get(`${ep.namespace}/${ep.podName}`) : undefined;
  return ep.labels[TLS_MODE_LABEL] ?? (pod?.proxy === 'sidecar' ? 'istio' : 'disabled');
}

/**
 * BestEffortInferServiceMTLSMode: undefined (unknown) for mesh-external services; DISABLE for passthrough
 * services (or a PASSTHROUGH load balancer) without endpoints or with a plaintext one; else the namespace /
 * mesh PeerAuthentication mode, PERMISSIVE by default.
 */
export function inferServiceMtlsMode(
  snapshot: MeshSnapshot,
  rootNamespace: string,
  policy: TrafficPolicy | undefined,
  svc: ServiceModel,
  endpoints: readonly EndpointModel[],
  pods: ReadonlyMap<string, PodModel>,
  /** namespaceMtlsMode of the snapshot, memoised by the caller (CDS asks once per cluster). */
  namespaceMode: (namespace: string) => ModeWithSource | undefined = (ns) => namespaceMtlsMode(snapshot, ns, rootNamespace),
): MtlsMode | undefined {
  if (svc.meshExternal) return undefined;
  if (svc.resolution === 'Passthrough' || policy?.loadBalancer?.simple === 'PASSTHROUGH') {
    if (endpoints.length === 0) return 'DISABLE';
    if (endpoints.some((ep) => endpointTlsMode(ep, pods) === 'disabled')) return 'DISABLE';
  }
  return namespaceMode(svc.namespace)?.mode ?? 'PERMISSIVE';
}

/** push.ServiceAccounts: the ServiceEntry's subjectAltNames and its workloads' identities (every port), sorted. */
export function serviceAccounts(
  snapshot: MeshSnapshot,
  svc: ServiceModel,
  endpointsOf: (port: number) => readonly EndpointModel[],
  trustDomain = DEFAULT_TRUST_DOMAIN,
): string[] {
  const out = new Set<string>();
  if (svc.registry === 'External') {
    const se = snapshot.serviceEntries.find((c) => c.meta.namespace === svc.ref.namespace && c.meta.name === svc.ref.name);
    for (const san of se?.spec.subjectAltNames ?? []) out.add(san);
  }
  for (const port of svc.ports)
    for (const ep of endpointsOf(port.port)) if (ep.serviceAccount) out.add(spiffeId(ep.namespace, ep.serviceAccount, trustDomain));
  return [...out].sort();
}
