// Routes istiod generates itself: the default outbound route of a service without VirtualService
// (route.go:BuildDefaultHTTPOutboundRoute) and the inbound default route (BuildDefaultHTTPInboundRoute).
import type { RouteJson, RouteAction_HashPolicyJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRetry } from '../../../model/istio';
import type { Protocol } from '../../../model/mesh';
import { DEFAULT_ROUTE_NAME } from '../../names';
import { convertRetryPolicy } from './retry';

/** telemetry.TraceOperation: `<host>:<port>/*`. */
export const traceOperation = (host: string, port: number): string => `${host}:${port}/*`;

/** name `default`, prefix `/` (no case_sensitive), timeout 0s, default retry policy, optional DR hash policy. */
export function defaultOutboundRoute(
  cluster: string,
  operation: string,
  hash?: RouteAction_HashPolicyJson,
  meshRetry?: HTTPRetry,
): RouteJson {
  const route: RouteJson = {
    name: DEFAULT_ROUTE_NAME,
    match: { prefix: '/' },
    route: { cluster, timeout: '0s', maxGrpcTimeout: '0s' },
    decorator: { operation },
  };
  const retry = convertRetryPolicy(meshRetry, false).policy;
  if (retry) route.route!.retryPolicy = retry;
  if (hash) route.route!.hashPolicy = [hash];
  return route;
}

const isGrpc = (p: Protocol) => p === 'GRPC' || p === 'GRPC-Web';

/** Inbound default: timeout 0, max_stream_duration 0/0, `reset-before-request` ×2 retries except for gRPC ports. */
export function defaultInboundRoute(cluster: string, operation: string, protocol: Protocol): RouteJson {
  const route: RouteJson = {
    name: DEFAULT_ROUTE_NAME,
    match: { prefix: '/' },
    route: { cluster, timeout: '0s', maxStreamDuration: { maxStreamDuration: '0s', grpcTimeoutHeaderMax: '0s' } },
    decorator: { operation },
  };
  if (!isGrpc(protocol)) route.route!.retryPolicy = { retryOn: 'reset-before-request', numRetries: 2 };
  return route;
}
