// The inline route config of an inbound HTTP chain (httproute.go: buildSidecarInboundHTTPRouteConfig;
// route.go: BuildDefaultHTTPInboundRoute; retry.go: ConvertInboundPolicy with MeshConfig's default
// (unset) inbound retry policy). Used for the passthrough chain (InboundPassthroughCluster, vhost
// `inbound|http|0`); service chains use routes/inbound.ts buildInboundRouteConfig(target), which
// builds the same shape from a ServiceTarget.
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { Protocol } from '../../../model/mesh';
import { DEFAULT_ROUTE_NAME, domainName } from '../../names';
import { isGrpcProtocol } from '../../../model/protocol';

export interface InboundRouteTarget {
  /** `inbound|<targetPort>||` or InboundPassthroughCluster; also the route config's name. */
  clusterName: string;
  /** The service port (virtual host `inbound|http|<port>`, 0 for passthrough). */
  servicePort: number;
  /** The service hostname ('' for passthrough): only used in the trace decorator `<host>:<port>/*`. */
  hostname: string;
  protocol: Protocol;
}

export function inboundRouteConfig(t: InboundRouteTarget): RouteConfigurationJson {
  return {
    name: t.clusterName,
    virtualHosts: [
      {
        name: `inbound|http|${t.servicePort}`,
        domains: ['*'],
        routes: [
          {
            name: DEFAULT_ROUTE_NAME,
            match: { prefix: '/' },
            route: {
              cluster: t.clusterName,
              // Inbound: no timeout, and grpc-timeout headers are not honoured.
              timeout: '0s',
              maxStreamDuration: { maxStreamDuration: '0s', grpcTimeoutHeaderMax: '0s' },
              // Requests reset before reaching the app are safe to retry; never for gRPC (streaming).
              ...(isGrpcProtocol(t.protocol) ? {} : { retryPolicy: { retryOn: 'reset-before-request', numRetries: 2 } }),
            },
            decorator: { operation: `${domainName(t.hostname, t.servicePort)}/*` },
          },
        ],
      },
    ],
    validateClusters: false,
  };
}
