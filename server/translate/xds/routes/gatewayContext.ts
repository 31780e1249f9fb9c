// RouteContext for a gateway server (networking/core/gateway.go:buildGatewayHTTPRouteConfig): routes
// are built with the server port as listen port and `<gw ns>/<gw name>` as gateway name; service
// lookup prefers the VirtualService's namespace; the proxy's DestinationRules give hash policies.
import type { RouteSourceSink } from '../../routeSources';
import type { ProxyView } from '../../view/types';
import type { RouteContext } from './context';
import { hashForDestination } from './hash';

export function gatewayRouteContext(
  view: ProxyView,
  opts: { serverPort: number; gatewayNames: ReadonlySet<string>; vsNamespace: string; isTLS?: boolean; routeSources?: RouteSourceSink },
): RouteContext {
  const ctx: RouteContext = {
    listenerPort: opts.serverPort,
    gatewayNames: opts.gatewayNames,
    proxyLabels: view.proxy.labels,
    proxyNamespace: view.proxy.namespace,
    // Method syntax: one context per (server, VirtualService), and named arrow properties cost a defineProperty each
    // under the dev-time transpiler (esbuild keepNames).
    serviceLookup(h) {
      return view.service(h, opts.vsNamespace);
    },
    consistentHash(dst) {
      return dst.destination ? hashForDestination(view.destinationRule(dst.destination.host)?.spec, dst.destination) : undefined;
    },
    isGateway: true,
  };
  // route.go:translateRoute: a route without `retries` takes MeshConfig.defaultHttpRetryPolicy (gateways too).
  if (view.options.defaultHttpRetryPolicy) ctx.defaultRetryPolicy = view.options.defaultHttpRetryPolicy;
  if (opts.isTLS !== undefined) ctx.isTLS = opts.isTLS;
  if (opts.routeSources) ctx.routeSources = opts.routeSources;
  return ctx;
}
