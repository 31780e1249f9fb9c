// Which VirtualService http rule produced a simulated route (the simulator only sees Envoy resources;
// Istio's route metadata names the VirtualService, not the rule).
import { DEFAULT_OPTIONS, type IstioConfig, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import type { SimResult } from '../simulate/types';
import { translateProxy } from '../translate/index';
import { resolveVirtualService } from '../translate/view';
import { delegateIndex, mergeDelegatesWithOrigins } from '../translate/view/delegation';
import { translateRouteMatch } from '../translate/xds/routes/match';

/**
 * The VirtualService http rule that produced the matched route: `http[i]` (the index in the VirtualService
 * as written), or `http[i] → delegate ns/name http[j]` for a route merged from a delegate. Istio's route
 * metadata names only the VirtualService, so with the inputs at hand the route is traced back: the first
 * http rule of that VirtualService (delegates merged) with a match that translates to the route's match
 * (TranslateRouteMatch) under the same route name (`name[.matchName]`). Undefined when the route did not
 * come from a VirtualService of these inputs.
 */
export function vsRuleOf(
  snapshot: MeshSnapshot,
  proxyId: string,
  result: SimResult,
  options: TranslateOptions = DEFAULT_OPTIONS,
): string | undefined {
  const src = result.source;
  if (src?.kind !== 'VirtualService' || result.routeIndex === undefined || result.virtualHost === undefined) return undefined;
  const proxy = snapshot.proxiesById.get(proxyId);
  if (!proxy) return undefined;
  const table = translateProxy(snapshot, proxy, options);
  const routeConfigs = result.routeConfig !== undefined ? table.routes.filter((r) => r.name === result.routeConfig) : table.routes;
  const vh = routeConfigs.flatMap((r) => r.virtualHosts ?? []).find((v) => v.name === result.virtualHost);
  const route = vh?.routes?.[result.routeIndex];
  if (!route) return undefined;
  const raw = snapshot.virtualServices.find((v) => v.meta.namespace === src.namespace && v.meta.name === src.name);
  if (!raw) return undefined;
  const resolve = (v: IstioConfig<'VirtualService'>) => resolveVirtualService(v, options.domainSuffix);
  const { vs, origins } = mergeDelegatesWithOrigins(resolve(raw), delegateIndex(snapshot.virtualServices), resolve);
  const want = JSON.stringify(route.match ?? {});
  const http = vs.spec.http ?? [];
  for (let i = 0; i < http.length; i++) {
    const h = http[i];
    const o = origins[i];
    if (!h || !o || h.delegate) continue;
    for (const m of h.match && h.match.length > 0 ? h.match : [undefined]) {
      const name = [h.name ?? '', m?.name].filter((x) => x !== undefined && x !== '').join('.');
      if (name !== (route.name ?? '')) continue;
      if (JSON.stringify(translateRouteMatch(m)) !== want) continue;
      const d = o.delegate;
      return d ? `http[${o.rootIndex}] → delegate ${d.namespace}/${d.name} http[${d.index}]` : `http[${o.rootIndex}]`;
    }
  }
  return undefined;
}
