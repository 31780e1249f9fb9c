// The parts every Istio cluster shares (cluster_builder.go: buildCluster, maybeApplyEdsConfig,
// addTelemetryMetadata, buildServiceMetadata; cluster.go: convertResolution).
import type { ProxyModel, ServiceModel, ServicePort } from '../../../model/mesh';
import type { ClusterJson } from '../../types';
import type { LocalityLbEndpointsJson } from '../endpoints/localityEndpoints';

export type ClusterType = NonNullable<ClusterJson['type']>;

/** MeshConfig.dnsRefreshRate default. */
export const DEFAULT_DNS_REFRESH_RATE = '60s';
/** Inbound passthrough bind addresses (iptables skips traffic from these). */
export const INBOUND_PASSTHROUGH_BIND_V4 = '127.0.0.6';
export const INBOUND_PASSTHROUGH_BIND_V6 = '::6';

const isV6 = (ip: string) => ip.includes(':');

/** convertResolution: ClientSideLB → EDS, DNS → STRICT_DNS, DNSRoundRobin → LOGICAL_DNS, Passthrough → ORIGINAL_DST (EDS on gateways). */
export function convertResolution(proxyType: ProxyModel['type'], svc: ServiceModel): ClusterType {
  switch (svc.resolution) {
    case 'DNS':
      return 'STRICT_DNS';
    case 'DNSRoundRobin':
      return 'LOGICAL_DNS';
    case 'Passthrough':
      return proxyType === 'router' ? 'EDS' : 'ORIGINAL_DST';
    default:
      return 'EDS';
  }
}

/** DNS lookup family from the proxy's IPs: all IPv4 → V4_ONLY, all IPv6 → V6_ONLY, dual stack → V4_ONLY. */
export function dnsLookupFamily(ips: readonly string[]): 'V4_ONLY' | 'V6_ONLY' {
  return ips.length > 0 && ips.every(isV6) ? 'V6_ONLY' : 'V4_ONLY';
}

export const serviceMetadata = (s: ServiceModel) => ({ host: s.hostname, name: s.name, namespace: s.namespace });

export type IstioMetadata = Record<string, unknown>;

/** The `istio` filter metadata struct of a cluster, created when missing. */
export function istioMetadata(c: ClusterJson): IstioMetadata {
  c.metadata ??= {};
  c.metadata.filterMetadata ??= {};
  const fm = c.metadata.filterMetadata as Record<string, IstioMetadata>;
  fm['istio'] ??= {};
  return fm['istio'];
}

export interface BaseClusterInput {
  name: string;
  type: ClusterType;
  proxy: ProxyModel;
  /** Inline endpoints for STATIC / DNS clusters. */
  localityLbEndpoints?: LocalityLbEndpointsJson[];
  /** Services for telemetry metadata (`istio.services`); none → no metadata. */
  services?: readonly ServiceModel[];
  /** For ORIGINAL_DST clusters of headless Kubernetes services: the target port to dial instead. */
  upstreamPortOverride?: number;
}

/**
 * buildCluster: name, type, empty common_lb_config, alt_stat_name `name;`; DNS clusters get the lookup family,
 * refresh rate and respect_dns_ttl; STATIC/DNS clusters carry their endpoints inline and are not built
 * (undefined) without any.
 */
export function baseCluster(i: BaseClusterInput): ClusterJson | undefined {
  const c: ClusterJson = { name: i.name, type: i.type, commonLbConfig: {}, altStatName: `${i.name};` };
  switch (i.type) {
    case 'STRICT_DNS':
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: DNS clusters carry a load assignment like STATIC ones
    case 'LOGICAL_DNS':
      c.dnsLookupFamily = dnsLookupFamily(i.proxy.ips);
      c.dnsRefreshRate = DEFAULT_DNS_REFRESH_RATE;
      c.respectDnsTtl = true;
    case 'STATIC':
      if (!i.localityLbEndpoints || i.localityLbEndpoints.length === 0) return undefined;
      c.loadAssignment = { clusterName: i.name, endpoints: i.localityLbEndpoints };
      break;
    case 'ORIGINAL_DST':
      if (i.upstreamPortOverride !== undefined) c.originalDstLbConfig = { upstreamPortOverride: i.upstreamPortOverride };
      break;
    default:
      break;
  }
  if (i.services && i.services.length > 0) istioMetadata(c)['services'] = i.services.map(serviceMetadata);
  return c;
}

/** maybeApplyEdsConfig: EDS clusters fetch `service_name = name` over ADS, no initial fetch timeout. */
export function applyEdsConfig(c: ClusterJson) {
  if (c.type !== 'EDS') return;
  c.edsClusterConfig = {
    edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
    serviceName: c.name ?? '',
  };
}

/** Headless Kubernetes services whose numeric targetPort differs from the port dial the target port. */
export function passthroughTargetPort(svc: ServiceModel, port: ServicePort): number | undefined {
  if (svc.registry !== 'Kubernetes' || svc.resolution !== 'Passthrough') return undefined;
  const tp = port.targetPort;
  return typeof tp === 'number' && tp !== port.port ? tp : undefined;
}

export function upstreamBind(proxy: ProxyModel) {
  const hasV4 = proxy.ips.length === 0 || proxy.ips.some((ip) => !isV6(ip));
  return { sourceAddress: { address: hasV4 ? INBOUND_PASSTHROUGH_BIND_V4 : INBOUND_PASSTHROUGH_BIND_V6, portValue: 0 } };
}
