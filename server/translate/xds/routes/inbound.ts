// Inline inbound HTTP route config of a sidecar inbound filter chain
// (httproute.go:buildSidecarInboundHTTPRouteConfig; istio-translation.md §8).
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import { inboundCluster } from '../../names';
import type { ServiceTarget } from '../../view/types';
import { defaultInboundRoute, traceOperation } from './defaultRoute';

/** `inbound|<targetPort>||` with one vhost `inbound|http|<servicePort>` (domains `*`) and route `default`. */
export function buildInboundRouteConfig(target: ServiceTarget): RouteConfigurationJson {
  const cluster = inboundCluster(target.targetPort);
  return {
    name: cluster,
    virtualHosts: [
      {
        name: `inbound|http|${target.port.port}`,
        domains: ['*'],
        routes: [defaultInboundRoute(cluster, traceOperation(target.service.hostname, target.port.port), target.port.protocol)],
      },
    ],
    validateClusters: false,
  };
}
