// Istio endpoints → Envoy LocalityLbEndpoints (xds/endpoints/endpoint_builder.go: generate,
// buildEnvoyLbEndpoint; networking/util: AppendLbEndpointMetadata, ConvertLocality).
// Shared by EDS and by DNS clusters' inline load_assignment.
import type { EndpointModel, Locality, PodModel, ServiceModel } from '../../../model/mesh';
import type { LocalityLbEndpointsJson } from '../../../gen/envoy/config/endpoint/v3/endpoint_components_pb';

export type { LocalityLbEndpointsJson };

const TLS_MODE_LABEL = 'security.istio.io/tlsMode';

const localityLabel = (l: Locality) => `${l.region}/${l.zone}/${l.subzone}`;

function localityJson(l: Locality): NonNullable<LocalityLbEndpointsJson['locality']> {
  const out: NonNullable<LocalityLbEndpointsJson['locality']> = {};
  if (l.region) out.region = l.region;
  if (l.zone) out.zone = l.zone;
  if (l.subzone) out.subZone = l.subzone;
  return out;
}

/**
 * Endpoint metadata as istiod writes it: `envoy.transport_socket_match.tlsMode` for endpoints with a sidecar
 * (label `security.istio.io/tlsMode`, or an injected pod), and the compressed telemetry string
 * `istio.workload = workload;namespace;canonical-name;canonical-revision;cluster-id`.
 */
function endpointMetadata(ep: EndpointModel, svc: ServiceModel, pod: PodModel | undefined, clusterId: string) {
  const labels = ep.labels;
  // WorkloadEntry endpoints carry their own TLS mode and workload name (serviceentry/conversion.go).
  const tlsMode = labels[TLS_MODE_LABEL] ?? ep.tlsMode ?? (pod && pod.proxy === 'sidecar' ? 'istio' : 'disabled');
  const workload = ep.workloadName ?? pod?.owner?.name ?? ep.podName ?? '';
  const namespace = svc.registry === 'Kubernetes' && ep.podName === undefined && ep.workloadName === undefined ? '' : ep.namespace;
  const canonicalName = labels['service.istio.io/canonical-name'] ?? labels['app.kubernetes.io/name'] ?? labels['app'] ?? '';
  const canonicalRev = labels['service.istio.io/canonical-revision'] ?? labels['app.kubernetes.io/version'] ?? labels['version'] ?? '';
  const filterMetadata: Record<string, Record<string, string>> = {};
  if (tlsMode !== '' && tlsMode !== 'disabled') filterMetadata['envoy.transport_socket_match'] = { tlsMode };
  filterMetadata['istio'] = {
    workload: [workload, namespace, canonicalName, canonicalRev === 'latest' ? '' : canonicalRev, clusterId].join(';'),
  };
  return { filterMetadata };
}

/**
 * Groups endpoints by locality (labels sorted), dropping unhealthy ones (istiod only sends them for services
 * that opt in, which the model cannot express). Each group's load_balancing_weight is the sum of its
 * endpoints' weights (grpc-js-xds drops localities without one).
 */
export function buildLocalityLbEndpoints(
  endpoints: readonly EndpointModel[],
  svc: ServiceModel,
  pods: ReadonlyMap<string, PodModel>,
  clusterId: string,
): LocalityLbEndpointsJson[] {
  const groups = new Map<string, { locality: Locality; eps: EndpointModel[] }>();
  for (const ep of endpoints) {
    if (!ep.healthy) continue;
    const key = localityLabel(ep.locality);
    const g = groups.get(key) ?? { locality: ep.locality, eps: [] };
    g.eps.push(ep);
    groups.set(key, g);
  }
  const keys = [...groups.keys()].sort();
  return keys.map((k) => {
    const g = groups.get(k)!;
    const lbEndpoints = g.eps.map((ep) => {
      const pod = ep.podName !== undefined ? pods.get(`${ep.namespace}/${ep.podName}`) : undefined;
      const weight = ep.weight > 0 ? ep.weight : 1;
      return {
        // Port 0 is a unix socket path (util.BuildAddress makes it a pipe).
        endpoint: {
          address: ep.port === 0 ? { pipe: { path: ep.address } } : { socketAddress: { address: ep.address, portValue: ep.port } },
        },
        healthStatus: 'HEALTHY' as const,
        metadata: endpointMetadata(ep, svc, pod, clusterId),
        loadBalancingWeight: weight,
      };
    });
    const total = Math.min(
      lbEndpoints.reduce((a, e) => a + e.loadBalancingWeight, 0),
      4294967295,
    );
    return { locality: localityJson(g.locality), lbEndpoints, loadBalancingWeight: total };
  });
}

/** Endpoints whose labels include every subset label (the subset selector). */
export function filterBySubset(endpoints: readonly EndpointModel[], labels: Readonly<Record<string, string>> | undefined): EndpointModel[] {
  if (!labels) return [...endpoints];
  return endpoints.filter((ep) => Object.entries(labels).every(([k, v]) => ep.labels[k] === v));
}
