// Gateway (router proxy) listeners and routes, as istiod builds them for `proxy router` pods
// (istio-translation.md §6). Pure: reads only the view.
//
// Known deviations from istiod:
// - QUIC/HTTP3 listeners (PILOT_ENABLE_QUIC_LISTENERS, off by default), PROXY protocol (gatewayTopology),
//   EnvoyFilter patches, authn/authz/telemetry filters, access logs and tracing are not modelled.
// - Kubernetes Gateway API (gateway service annotation selection) is not modelled: Istio Gateways only.
// - AUTO_PASSTHROUGH chains are built, but the SNI-DNAT clusters they point at are not added to CDS.
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { LoadError } from '../../../model/mesh';
import type { RouteSourceSink } from '../../routeSources';
import type { ProxyView } from '../../view/types';
import { buildGatewayListeners } from './listeners';
import { buildGatewayRouteConfig } from './routeConfig';

export { buildGatewayRouteConfig } from './routeConfig';
export { buildGatewayListeners } from './listeners';

export interface GatewayResources {
  listeners: ListenerJson[];
  /** One route config per RDS name the listeners reference. */
  routes: RouteConfigurationJson[];
  errors: LoadError[];
}

export function buildGatewayResources(view: ProxyView, routeSources?: RouteSourceSink): GatewayResources {
  const errors: LoadError[] = [];
  const gateway = view.gateway;
  if (!gateway) return { listeners: [], routes: [], errors };
  try {
    const lds = buildGatewayListeners(view, gateway);
    errors.push(...lds.errors);
    const routes: RouteConfigurationJson[] = [];
    for (const name of lds.routeNames) {
      const r = buildGatewayRouteConfig(view, gateway, name, routeSources);
      routes.push(r.route);
      errors.push(...r.errors);
    }
    return { listeners: lds.listeners, routes, errors };
  } catch (e) {
    // A translator never throws: a bug met on odd input is reported, the router still gets its clusters.
    errors.push({
      severity: 'error',
      message: `gateway listeners/routes of ${view.proxy.id}: ${(e as Error).message}`,
      object: `Proxy ${view.proxy.id}`,
    });
    return { listeners: [], routes: [], errors };
  }
}
