// RDS: HTTP route translation (VirtualService → Envoy routes) and sidecar route configurations.
export type { ConsistentHashLB, RouteContext } from './context';
export { buildHttpRoutesForVirtualService, translateRoute, routeOperation } from './httpRoutes';
export { buildSidecarRouteConfigs, buildSniffedRouteConfig, MAX_DIRECT_RESPONSE_BODY_BYTES } from './sidecarRouteConfigs';
export { buildSidecarVirtualHosts, servicesForPort, sidecarRouteContext, isHttpOrSniffed } from './virtualHosts';
export { gatewayRouteContext } from './gatewayContext';
export { buildInboundRouteConfig } from './inbound';
export { catchAllVirtualHost } from './catchAll';
export { defaultOutboundRoute, defaultInboundRoute, traceOperation } from './defaultRoute';
export { isCatchAllRoute, translateRouteMatch, resolveGatewayName } from './match';
export { destinationCluster } from './destination';
export { hashForDestination, hashForService, hashPolicy } from './hash';
export { convertRetryPolicy, defaultRetryPolicy } from './retry';
export { normalizeDuration } from '../../../lib/duration';
