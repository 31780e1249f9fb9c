// Route provenance carried forward from translation: while a VirtualService's http rules become Envoy routes
// (xds/routes/httpRoutes.ts), each route object is recorded with the rule it came from; once the route
// configs are assembled, translateProxy reads the recording back by position (route config, virtual host,
// index). Identity survives everything the builders do after translateRoute (virtual hosts share route arrays,
// gateways append and reorder routes, sniffed route configs copy virtual hosts), so nothing is re-derived.
// Also the one reader every consumer uses (simulateProxy, the API, the UI, the sandbox).
import type { RouteJson } from '../gen/envoy/config/route/v3/route_components_pb';
import type { RouteConfigurationJson } from '../gen/envoy/config/route/v3/route_pb';
import type { RouteProvenance, RouteRuleSource } from './types';

/** Collects route → rule while one proxy is translated. Owned by that translation; never shared. */
export interface RouteSourceSink {
  record(route: RouteJson, source: RouteRuleSource): void;
  get(route: RouteJson): RouteRuleSource | undefined;
}

export function createRouteSourceSink(): RouteSourceSink {
  // A Map, not a WeakMap: the sink lives for one translation (its routes are live anyway), and ephemeron
  // tables made the young-generation GC a third of gateway RDS generation for 1,000 routes.
  const map = new Map<RouteJson, RouteRuleSource>();
  return {
    record: (route, source) => void map.set(route, source),
    get: (route) => map.get(route),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The recorded sources of every route in these route configs, sorted by (route config, virtual host, index). */
export function collectRouteProvenance(routeConfigs: readonly RouteConfigurationJson[], sink: RouteSourceSink): RouteProvenance[] {
  const out: RouteProvenance[] = [];
  for (const rc of routeConfigs) {
    for (const vh of rc.virtualHosts ?? []) {
      (vh.routes ?? []).forEach((route, index) => {
        const source = sink.get(route);
        if (!source) return;
        const entry: RouteProvenance = { routeConfig: rc.name ?? '', virtualHost: vh.name ?? '', index, source };
        if (route.name) entry.route = route.name;
        out.push(entry);
      });
    }
  }
  return out.sort((a, b) => compare(a.routeConfig, b.routeConfig) || compare(a.virtualHost, b.virtualHost) || a.index - b.index);
}

const key = (routeConfig: string, virtualHost: string, index: number) => `${routeConfig}\u0000${virtualHost}\u0000${index}`;

/** A lookup over a provenance list: (route config, virtual host, route index) → the rule, if any. */
export function routeSourceIndex(
  provenance: readonly RouteProvenance[],
): (routeConfig: string, virtualHost: string, index: number) => RouteRuleSource | undefined {
  const map = new Map(provenance.map((p) => [key(p.routeConfig, p.virtualHost, p.index), p.source]));
  return (routeConfig, virtualHost, index) => map.get(key(routeConfig, virtualHost, index));
}

/**
 * The rule as the simulator and the CLI print it (DESIGN.md §3 `source.rule`): `http[i]`, or
 * `http[i] → delegate ns/name http[j]` for a route merged from a delegate VirtualService.
 */
export function ruleLabel(source: RouteRuleSource): string {
  const d = source.delegate;
  return d ? `${source.rule} → delegate ${d.namespace}/${d.name} ${d.rule}` : source.rule;
}
