// The fixed clusters (cluster_builder.go: buildBlackHoleCluster, buildDefaultPassthroughCluster,
// buildInboundPassthroughCluster). Skipped: PassthroughCluster's HttpProtocolOptions
// (use_downstream_protocol, 5m idle timeout) and the istio.metadata_exchange cluster filter.
import type { ProxyModel } from '../../../model/mesh';
import { BLACKHOLE_CLUSTER, INBOUND_PASSTHROUGH_CLUSTER, PASSTHROUGH_CLUSTER } from '../../names';
import type { ClusterJson } from '../../types';
import { INBOUND_PASSTHROUGH_BIND_V4, INBOUND_PASSTHROUGH_BIND_V6 } from './base';
import { defaultThresholds } from './trafficPolicy/connectionPool';

/** STATIC with no endpoints: connections fail immediately. */
export function blackHoleCluster(connectTimeout: string): ClusterJson {
  return { name: BLACKHOLE_CLUSTER, type: 'STATIC', connectTimeout, lbPolicy: 'ROUND_ROBIN', altStatName: `${BLACKHOLE_CLUSTER};` };
}

/** ORIGINAL_DST to wherever the connection was going, default circuit breakers. */
export function passthroughCluster(connectTimeout: string): ClusterJson {
  return {
    name: PASSTHROUGH_CLUSTER,
    type: 'ORIGINAL_DST',
    connectTimeout,
    lbPolicy: 'CLUSTER_PROVIDED',
    circuitBreakers: { thresholds: [defaultThresholds()] },
    altStatName: `${PASSTHROUGH_CLUSTER};`,
  };
}

/**
 * The passthrough cluster renamed, bound from 127.0.0.6 (::6 without IPv4; both for dual stack). Istio keeps
 * the alt_stat_name of the cluster it copies (`PassthroughCluster;`).
 */
export function inboundPassthroughCluster(connectTimeout: string, proxy: ProxyModel): ClusterJson {
  const v4 = proxy.ips.length === 0 || proxy.ips.some((ip) => !ip.includes(':'));
  const v6 = proxy.ips.some((ip) => ip.includes(':'));
  const c = passthroughCluster(connectTimeout);
  c.name = INBOUND_PASSTHROUGH_CLUSTER;
  c.upstreamBindConfig = {
    sourceAddress: { address: v4 ? INBOUND_PASSTHROUGH_BIND_V4 : INBOUND_PASSTHROUGH_BIND_V6, portValue: 0 },
    ...(v4 && v6 ? { extraSourceAddresses: [{ address: { address: INBOUND_PASSTHROUGH_BIND_V6, portValue: 0 } }] } : {}),
  };
  return c;
}
