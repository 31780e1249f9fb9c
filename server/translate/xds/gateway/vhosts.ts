// Gateway virtual host post-processing (networking/core/gateway.go: collapseDuplicateRoutes,
// vhostMergeable; route/route.go: SortVHostRoutes). Host name order and intersection: server/model/host; which
// hosts a VirtualService binds to a server is the view's (view/gateway/binding.ts).
import type { RouteJson, VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import { compareHostSpecificity } from '../../../model/host';
import { isCatchAllRoute } from '../routes/match';

/** SortVHostRoutes: catch-all routes moved last, both groups keeping their order. */
export function sortVHostRoutes(routes: readonly RouteJson[]): RouteJson[] {
  const rest: RouteJson[] = [];
  const catchAll: RouteJson[] = [];
  for (const r of routes) (isCatchAllRoute(r) ? catchAll : rest).push(r);
  return [...rest, ...catchAll];
}

/** routesEqual: the same route objects in the same order (istiod compares pointers). */
const sameRoutes = (a: readonly RouteJson[], b: readonly RouteJson[]): boolean => a.length === b.length && a.every((r, i) => r === b[i]);

const mergeable = (a: VirtualHostJson, b: VirtualHostJson): boolean =>
  (a.includeRequestAttemptCount ?? false) === (b.includeRequestAttemptCount ?? false) &&
  (a.requireTls ?? 'NONE') === (b.requireTls ?? 'NONE') &&
  sameRoutes(a.routes ?? [], b.routes ?? []);

/**
 * collapseDuplicateRoutes: hosts visited most specific first; a vhost whose route list is identical (same
 * route objects) to an earlier one's, with the same attempt-count and TLS requirement, is folded into it
 * (its domains appended). Returns new vhost objects; the input is not mutated.
 */
export function collapseDuplicateRoutes(byHost: ReadonlyMap<string, VirtualHostJson>): VirtualHostJson[] {
  const ids = new Map<RouteJson, number>();
  const idOf = (r: RouteJson) => {
    let id = ids.get(r);
    if (id === undefined) ids.set(r, (id = ids.size));
    return id;
  };
  // istiod keys by a hash of the route pointers; the key here is the list of route identities.
  const known = new Map<string, VirtualHostJson>();
  const kept: VirtualHostJson[] = [];
  for (const h of [...byHost.keys()].sort(compareHostSpecificity)) {
    const vh = byHost.get(h) as VirtualHostJson;
    const key = (vh.routes ?? []).map(idOf).join(',');
    const into = known.get(key);
    if (into && mergeable(vh, into)) {
      into.domains = [...(into.domains ?? []), ...(vh.domains ?? [])];
      continue;
    }
    const copy: VirtualHostJson = { ...vh, domains: [...(vh.domains ?? [])] };
    known.set(key, copy);
    kept.push(copy);
  }
  return kept;
}
