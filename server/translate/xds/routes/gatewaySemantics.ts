// Routes of VirtualServices generated from the Gateway API (annotation internal.istio.io/route-semantics:
// gateway, pkg/config/constants.RouteSemanticsGateway) follow Gateway API rules in istiod's route.go:
// - TranslateRouteMatch: a prefix other than `/` becomes path_separated_prefix (trailing `/` dropped), so
//   `/static` matches `/static` and `/static/x` but not `/staticx`;
// - translateRoute: cluster_not_found_response_code INTERNAL_SERVER_ERROR (a missing backend answers 500);
// - a URLRewrite ReplacePrefixMatch `/` removes the matched prefix with a regex rewrite.
import type { RouteJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { IstioConfig } from '../../../model/mesh';

export const hasGatewaySemantics = (vs: Pick<IstioConfig, 'meta'>): boolean =>
  vs.meta.annotations?.['internal.istio.io/route-semantics'] === 'gateway';

const quoteMeta = (s: string): string => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** Applies the Gateway API semantics to a translated route, in place. */
export function applyGatewaySemantics(out: RouteJson): void {
  const m = out.match;
  if (m?.prefix !== undefined && m.prefix !== '/') {
    const path = m.prefix.endsWith('/') ? m.prefix.slice(0, -1) : m.prefix;
    const { prefix: _drop, ...rest } = m;
    out.match = { pathSeparatedPrefix: path, ...rest };
  }
  const action = out.route;
  if (!action) return;
  action.clusterNotFoundResponseCode = 'INTERNAL_SERVER_ERROR';
  if (action.prefixRewrite === '/') {
    delete action.prefixRewrite;
    action.regexRewrite = { pattern: { regex: `^${quoteMeta(out.match?.pathSeparatedPrefix ?? '')}(/?)(.*)` }, substitution: '/\\2' };
  }
}
