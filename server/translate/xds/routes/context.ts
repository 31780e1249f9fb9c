// RouteContext: everything HTTP route translation needs to know about where the routes will be
// served (istiod's BuildHTTPRoutesForVirtualService arguments + RouteOptions). Sidecars pass the
// listener port and {'mesh'}; gateways pass the server port and `<ns>/<name>`.
import type { Destination, HTTPRetry, HTTPRouteDestination, LoadBalancerSettings } from '../../../model/istio';
import type { IstioConfig, LoadError, ServiceModel } from '../../../model/mesh';
import type { RouteSourceSink } from '../../routeSources';
import { configError } from '../../configError';

export type ConsistentHashLB = NonNullable<LoadBalancerSettings['consistentHash']>;

export interface RouteContext {
  /** Listener port (sidecar) or server port (gateway): match.port filter, redirect derivePort, cluster fallback port. */
  listenerPort: number;
  /** `mesh` for sidecars; `<gwns>/<gwname>` for gateways. */
  gatewayNames: ReadonlySet<string>;
  proxyLabels: Readonly<Record<string, string>>;
  proxyNamespace: string;
  /** Service lookup for destination cluster names (sidecars: the services narrowed to the listener port). */
  serviceLookup(hostname: string): ServiceModel | undefined;
  /** The DestinationRule consistent hash that applies to a route destination, if any. */
  consistentHash?(dst: HTTPRouteDestination): ConsistentHashLB | undefined;
  isGateway: boolean;
  /** The route is served on a TLS-terminating listener (redirect default scheme https). */
  isTLS?: boolean;
  /** MeshConfig.defaultHttpRetryPolicy; undefined = Istio's built-in default. */
  defaultRetryPolicy?: HTTPRetry;
  /**
   * RouteOptions.LookupDestinationCluster: the cluster a destination routes to (default `outbound|…`,
   * GetDestinationCluster); waypoints route to `inbound-vip|…` for the Services they serve.
   */
  destinationCluster?(dst: Destination, service: ServiceModel | undefined, listenerPort: number): string;
  /** Where each translated route's VirtualService rule is recorded (provenance; never changes the output). */
  routeSources?: RouteSourceSink;
}

/** `VirtualService ns/name` + origin, for located errors (severity error unless said). */
export function vsError(
  vs: Pick<IstioConfig, 'kind' | 'meta' | 'origin'>,
  path: string,
  message: string,
  severity: LoadError['severity'] = 'error',
): LoadError {
  return configError(vs, path, message, severity);
}

/** Scalar/number readers over specs (server/lib/json). */
export { asNumber as num, asScalarString as str } from '../../../lib/json';
