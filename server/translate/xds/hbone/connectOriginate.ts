// The `connect_originate` pair every HBONE sender carries: the internal listener that wraps a connection in an
// HTTP/2 CONNECT tunnel (listener_waypoint.go buildConnectOriginateListener → buildConnectForwarder(tunnel)) and the
// ORIGINAL_DST cluster that dials the destination's HBONE port 15008 over mTLS (cluster_waypoint.go
// buildConnectOriginate). Sidecars and gateways get both under the ambient profile (listener.go BuildListeners and
// cluster.go BuildClusters: `features.EnableHBONESend && !waypoint`, the cluster also unless the proxy sets
// DISABLE_HBONE_SEND); a waypoint gets them from its own builder with its namespace's SAN prefix
// (buildWaypointConnectOriginate). As for every proxy, the cluster's HttpProtocolOptions (h2 CONNECT upgrade,
// idle timeout) and the listener's access log are not generated. Pure.
import type { ClusterJson, ListenerJson } from '../../types';
import { defaultThresholds } from '../clusters/trafficPolicy/connectionPool';
import { originalDst, tcpProxyFilter } from '../listeners/filters';
import { connectTlsContext } from './tls';

/** ConnectOriginate: the internal listener and the cluster that open the HBONE tunnel. */
export const CONNECT_ORIGINATE = 'connect_originate';
/** model.HBoneInboundListenPort. */
export const HBONE_PORT = 15008;
/** util.OriginalDstMetadataKey: where the tunnel's logical destination rides on an endpoint. */
export const ORIGINAL_DST_METADATA = 'envoy.filters.listener.original_dst';

const T_UPSTREAM_TLS = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext';

/**
 * buildConnectOriginate(ConnectOriginate, proxy, push, uriSanMatchers…): ORIGINAL_DST, CLUSTER_PROVIDED, port
 * overridden to 15008, the destination taken from the endpoint's `original_dst.waypoint` metadata when set,
 * HBONE TLS verifying the given URI SAN prefixes (none for sidecars and gateways).
 */
export function connectOriginateCluster(connectTimeout: string | undefined, sanPrefixes: readonly string[] = []): ClusterJson {
  return {
    name: CONNECT_ORIGINATE,
    type: 'ORIGINAL_DST',
    lbPolicy: 'CLUSTER_PROVIDED',
    connectTimeout,
    cleanupInterval: '60s',
    circuitBreakers: { thresholds: [defaultThresholds()] },
    originalDstLbConfig: {
      upstreamPortOverride: HBONE_PORT,
      metadataKey: { key: ORIGINAL_DST_METADATA, path: [{ key: 'waypoint' }] },
    },
    transportSocket: {
      name: 'tls',
      typedConfig: { '@type': T_UPSTREAM_TLS, commonTlsContext: connectTlsContext(sanPrefixes) },
    },
    altStatName: `${CONNECT_ORIGINATE};`,
  } as ClusterJson;
}

/** buildConnectForwarder(connect_originate, tunnel=true): tcp_proxy to the connect_originate cluster, CONNECT to the original destination. */
export function connectOriginateListener(): ListenerJson {
  return {
    name: CONNECT_ORIGINATE,
    useOriginalDst: false,
    internalListener: {},
    listenerFilters: [originalDst()],
    filterChains: [
      {
        filters: [
          tcpProxyFilter({
            statPrefix: CONNECT_ORIGINATE,
            cluster: CONNECT_ORIGINATE,
            tunnelingConfig: { hostname: '%DOWNSTREAM_LOCAL_ADDRESS%' },
          }),
        ],
      },
    ],
  } as ListenerJson;
}
