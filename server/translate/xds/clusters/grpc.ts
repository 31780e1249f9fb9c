// CDS for proxyless gRPC clients (pilot/pkg/networking/grpcgen/cds.go): istiod answers gRPC's by-name
// requests with minimal EDS clusters — no LEAST_REQUEST (gRPC NACKs it), no circuit breakers, no Envoy-only
// fields — and applies only consistent-hash load balancing from the DestinationRule. Explicit ISTIO_MUTUAL
// TLS (certificate providers) is not generated yet.
import { outboundCluster, parseClusterName } from '../../names';
import type { ClusterJson } from '../../types';
import type { ProxyView } from '../../view/types';
import { applyLoadBalancer } from './trafficPolicy/loadBalancer';
import { mergeSubsetPolicy, portLevelPolicy } from './trafficPolicy/select';

function edsCluster(name: string): ClusterJson {
  return { name, type: 'EDS', edsClusterConfig: { serviceName: name, edsConfig: { ads: {} } } };
}

/** ApplyRingHashLoadBalancer only: RING_HASH/MAGLEV for consistentHash; everything else stays ROUND_ROBIN. */
function applyHash(c: ClusterJson, lb: Parameters<typeof applyLoadBalancer>[1]) {
  if (!lb?.value.consistentHash) return;
  const probe: ClusterJson = { type: 'EDS' };
  applyLoadBalancer(probe, { value: { consistentHash: lb.value.consistentHash }, path: lb.path }, { errors: [] });
  c.lbPolicy = probe.lbPolicy;
  if (probe.ringHashLbConfig) c.ringHashLbConfig = probe.ringHashLbConfig;
  if (probe.maglevLbConfig) c.maglevLbConfig = probe.maglevLbConfig;
}

/**
 * Clusters for the requested names (gRPC always subscribes by name); without names, every outbound service
 * port and subset the proxy could ask for. Unknown services still get a bare default cluster, as istiod does.
 */
export function buildGrpcClusters(view: ProxyView, names?: readonly string[]): ClusterJson[] {
  const services = view.destinationServices();
  const wanted =
    names ??
    services.flatMap((s) =>
      s.ports.flatMap((p) => [
        outboundCluster(p.port, s.hostname),
        ...(view.destinationRule(s.hostname)?.spec.subsets ?? []).map((ss) => outboundCluster(p.port, s.hostname, ss.name)),
      ]),
    );
  const out: ClusterJson[] = [];
  const seen = new Set<string>();
  for (const name of wanted) {
    if (seen.has(name)) continue;
    seen.add(name);
    const parsed = parseClusterName(name);
    if (parsed?.direction !== 'outbound' || parsed.hostname === '' || parsed.port === 0) continue;
    const c = edsCluster(name);
    const svc = services.find((s) => s.hostname === parsed.hostname);
    const port = svc?.ports.find((p) => p.port === parsed.port);
    const dr = svc && port ? view.destinationRule(svc.hostname) : undefined;
    if (parsed.subset !== '') {
      const subset = dr?.spec.subsets?.find((s) => s.name === parsed.subset);
      if (!subset) continue; // istiod only builds subsets its DestinationRule defines
      const policy = mergeSubsetPolicy(
        portLevelPolicy(dr?.spec.trafficPolicy, 'spec.trafficPolicy', parsed.port),
        portLevelPolicy(subset.trafficPolicy, 'subset', parsed.port),
      );
      applyHash(c, policy.loadBalancer);
    } else if (dr) {
      applyHash(c, portLevelPolicy(dr.spec.trafficPolicy, 'spec.trafficPolicy', parsed.port).loadBalancer);
    }
    out.push(c);
  }
  return out;
}
