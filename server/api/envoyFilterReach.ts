// The overview's "EnvoyFilters that apply nowhere" (issue #22 §2): every EnvoyFilter with how many proxies it
// selects, whether a patch of it changed any proxy's config, and if not, why (server/envoyfilter/reach.ts).
// Proxies are translated through the runtime's resource cache (what ADS and the proxy page share); the answer is
// computed once per snapshot. A signed-in viewer sees the EnvoyFilters of its namespaces only.
import { type EnvoyFilterReach, envoyFilterReach } from '../envoyfilter/reach';
import { proxyResources } from '../pipeline/proxyResources';
import { memoized } from './snapshotMemo';
import { ok, type ApiContext, type ApiResult } from './types';

export type { EnvoyFilterReach } from '../envoyfilter/reach';

/**
 * Most proxies one answer translates (a sidecar of a 1,000-service mesh takes a few hundred ms): a filter is usually
 * found applied on its first selected proxy, and a proxy the runtime already translated (ADS, the proxy page) comes
 * from the cache. Beyond it an entry says `partial`.
 */
export const REACH_API_LIMIT = 25;

export interface EnvoyFilterReachResponse {
  version: number;
  /** Every EnvoyFilter, in input order. */
  filters: EnvoyFilterReach[];
}

export function envoyFilterReachBody(ctx: ApiContext): ApiResult<EnvoyFilterReachResponse> {
  const body = memoized(ctx, 'envoyFilterReach', () => ({
    version: ctx.snapshot.version,
    filters: envoyFilterReach(ctx.snapshot, (p) => proxyResources(ctx.snapshot, p.id, ctx.options, ctx.cache)?.envoyFilters, {
      rootNamespace: ctx.options.rootNamespace,
      limit: REACH_API_LIMIT,
    }),
  }));
  const v = ctx.viewer;
  return ok(v && !v.all ? { ...body, filters: body.filters.filter((f) => v.sees(f.namespace)) } : body);
}
