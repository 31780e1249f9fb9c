// CDS for one proxy (networking/core/cluster.go:buildClusters; istio-translation.md §7).
//
// Order as istiod builds it — sidecars: outbound service clusters (per service, per non-UDP port: the default
// cluster then its subsets), BlackHoleCluster, PassthroughCluster, inbound clusters, InboundPassthroughCluster;
// gateways: outbound clusters (Passthrough services as EDS) and BlackHoleCluster. Duplicate names keep the first.
// Under the ambient profile both also get `connect_originate` (cluster.go BuildClusters: "OutboundTunnel cluster is
// needed for sidecar and gateway", features.EnableHBONESend unless the proxy sets DISABLE_HBONE_SEND; ../hbone).
//
// Skipped because the generated registry cannot encode them or they are Istio-private extensions:
// - typed_extension_protocol_options (envoy.extensions.upstreams.http.v3.HttpProtocolOptions): h2 for
//   HTTP2/gRPC ports, use_downstream_protocol for sniffed ports, DR idleTimeout / maxRequestsPerConnection /
//   maxConnectionDuration / maxConcurrentStreams / h2UpgradePolicy / useClientProtocol;
// - filters: istio.metadata_exchange (istio.* protos);
// - typed_dns_resolver_config (envoy.network.dns_resolver.cares) and dns_jitter on DNS clusters;
// - auto_sni / auto_san_validation (they live in the HttpProtocolOptions above) for SIMPLE/MUTUAL DestinationRule TLS;
// - locality failover priorities and the DR tunnel / proxyProtocol settings.
import type { LoadError } from '../../../model/mesh';
import type { ClusterJson } from '../../types';
import type { ProxyView } from '../../view/types';
import { buildInboundClusters } from './inbound';
import { buildServicePortClusters, type OutboundInput } from './outbound';
import { type ModeWithSource, namespaceMtlsMode } from '../../security/peerAuthentication';
import type { ClusterTlsSink } from './clientTls';

export type { ClusterTlsRecord, ClusterTlsSink } from './clientTls';
import { blackHoleCluster, inboundPassthroughCluster, passthroughCluster } from './special';
import { connectOriginateCluster } from '../hbone/connectOriginate';
import { disablesHboneSend, hboneSendEnabled } from '../hbone/profile';

/** `tlsSink` receives each outbound cluster's client TLS decision (auto mTLS / DestinationRule / none). */
export function buildClusters(view: ProxyView, tlsSink?: ClusterTlsSink): { clusters: ClusterJson[]; errors: LoadError[] } {
  const errors: LoadError[] = [];
  const pods = view.pods();
  const timeout = view.options.connectTimeout;
  const all: ClusterJson[] = [];
  // GetNamespaceMutualTLSMode per namespace, once for this build (not once per cluster)
  const modes = new Map<string, ModeWithSource | undefined>();
  const namespaceMode = (ns: string): ModeWithSource | undefined => {
    if (!modes.has(ns)) modes.set(ns, namespaceMtlsMode(view.snapshot, ns, view.options.rootNamespace));
    return modes.get(ns);
  };
  const input: OutboundInput = { view, pods, errors, namespaceMode, ...(tlsSink ? { tlsSink } : {}) };
  for (const svc of view.clusterServices()) {
    if (svc.resolution === 'Alias') continue;
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      try {
        for (const c of buildServicePortClusters(input, svc, port)) all.push(c);
      } catch (e) {
        // a translator bug must not take the proxy's whole CDS down: report it against the service
        errors.push({
          severity: 'error',
          message: `cluster for port ${port.port} not generated: ${(e as Error).message}`,
          object: `${svc.ref.kind} ${svc.namespace}/${svc.name}`,
        });
      }
    }
  }
  all.push(blackHoleCluster(timeout));
  if (view.proxy.type === 'sidecar') {
    all.push(passthroughCluster(timeout));
    all.push(...buildInboundClusters(view, errors));
    all.push(inboundPassthroughCluster(timeout, view.proxy));
  }
  if (hboneSendEnabled(view.snapshot) && !disablesHboneSend(view.proxy)) all.push(connectOriginateCluster(timeout));
  const seen = new Set<string>();
  const clusters = all.filter((c) => {
    const name = c.name ?? '';
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  // the same problem met by a default cluster and its subsets is reported once
  const keys = new Set<string>();
  const unique = errors.filter((e) => {
    const k = JSON.stringify(e);
    if (keys.has(k)) return false;
    keys.add(k);
    return true;
  });
  return { clusters, errors: unique };
}
