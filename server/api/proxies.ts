// Proxies: the list (id, type, namespace, labels, ips + resource counts) and one proxy's detail.
// The list never translates every proxy of a large mesh: counts come from the resource cache (proxies
// already translated for this snapshot), or are computed for all on small meshes, or on request for a
// few ids (`?counts=a,b`, what the proxies page asks for the rows it shows).
import type { LoadError } from '../model/mesh';
import { configDumpFor, isDumpType } from '../pipeline/configDump';
import { proxyResources, resourceCacheKey, type ProxyResources } from '../pipeline/proxyResources';
import { isSharedCache } from '../pipeline/sharedResources';
import { buildProxyTable } from '../pipeline/stages';
import type { RouteProvenance } from '../translate/types';
import { tablesFromConfigDump, type ProxyTables } from '../envoy/dumpModel/tables';
import { fail, ok, type ApiContext, type ApiResult } from './types';
import { proxySecurity, type ProxySecurity } from './security';
import { proxyInfo, type ProxyInfo } from './proxyInfo';

export { listProxyInfo, proxyInfo, type ProxyInfo } from './proxyInfo';

export interface ResourceCounts {
  listeners: number;
  routes: number;
  clusters: number;
  endpoints: number;
}

export interface ProxySummary extends ProxyInfo {
  /** Absent when not computed yet (large meshes: ask `?counts=` for the rows shown). */
  counts?: ResourceCounts;
  /** Translation problems for this proxy (absent with counts). */
  errors?: number;
}

export interface ProxyCounts {
  counts: ResourceCounts;
  errors: number;
}

/** `GET /api/proxies`. */
export interface ProxiesResponse {
  version: number;
  proxies: ProxySummary[];
  /** False when some proxies have no counts yet (large meshes: ask `?counts=` for the rows shown). */
  countsComplete: boolean;
}

/** `GET /api/proxies?counts=a,b`. */
export interface ProxyCountsResponse {
  version: number;
  counts: Record<string, ProxyCounts>;
}

/** Up to this many proxies, the list computes every proxy's counts (as it always did). */
export const EAGER_COUNTS_LIMIT = 100;
/** At most this many ids per `?counts=` request (each may be a full translation). */
export const MAX_COUNT_IDS = 20;

const countsOf = (r: ProxyResources): ProxyCounts => ({
  counts: { listeners: r.listeners.length, routes: r.routes.length, clusters: r.clusters.length, endpoints: r.endpoints.length },
  errors: r.errors.length,
});

const cached = (ctx: ApiContext, id: string): ProxyResources | undefined => {
  const proxy = ctx.snapshot.proxiesById.get(id);
  if (proxy && isSharedCache(ctx.cache)) return ctx.cache.peek(ctx.snapshot, proxy, ctx.options);
  return ctx.cache?.get(resourceCacheKey(ctx.snapshot.version, id, ctx.options));
};

/**
 * One proxy's counts: exact from the resource cache when it holds this snapshot's resources; otherwise from
 * translation alone (no encoding, nothing cached: counts do not hold 10,000 encoded clusters in memory).
 * The two agree unless the encoder rejects a resource (a translator bug, reported on the proxy page).
 */
export function proxyCounts(ctx: ApiContext, id: string): ProxyCounts | undefined {
  const proxy = ctx.snapshot.proxiesById.get(id);
  if (!proxy) return undefined;
  const hit = cached(ctx, id);
  if (hit) return countsOf(hit);
  try {
    const t = buildProxyTable(ctx.snapshot, proxy, ctx.options);
    return {
      counts: { listeners: t.listeners.length, routes: t.routes.length, clusters: t.clusters.length, endpoints: t.endpoints.length },
      errors: t.errors.length,
    };
  } catch {
    // translateProxy must not throw; if it does, one problem is counted rather than failing the list.
    return { counts: { listeners: 0, routes: 0, clusters: 0, endpoints: 0 }, errors: 1 };
  }
}

/**
 * Every proxy. Counts: all of them on meshes of at most EAGER_COUNTS_LIMIT proxies (encoded and cached, as
 * the proxy page and ADS use them); otherwise only those already in the cache — the rest on request.
 */
export function listProxies(ctx: ApiContext): ApiResult<ProxiesResponse> {
  const eager = ctx.snapshot.proxies.length <= EAGER_COUNTS_LIMIT;
  let complete = true;
  const proxies = ctx.snapshot.proxies.map((p): ProxySummary => {
    const r = eager ? proxyResources(ctx.snapshot, p.id, ctx.options, ctx.cache) : cached(ctx, p.id);
    if (!r) {
      complete = false;
      return proxyInfo(p);
    }
    return { ...proxyInfo(p), ...countsOf(r) };
  });
  return ok({ version: ctx.snapshot.version, proxies, countsComplete: complete });
}

/** `GET /api/proxies?counts=a,b`: the counts of those proxies (unknown ids are left out). */
export function countProxies(ctx: ApiContext, idsParam: string): ApiResult<ProxyCountsResponse | { error: string }> {
  const ids = [
    ...new Set(
      idsParam
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s),
    ),
  ];
  if (ids.length === 0) return fail(400, 'counts: give proxy ids, comma-separated');
  if (ids.length > MAX_COUNT_IDS) return fail(400, `counts: at most ${MAX_COUNT_IDS} ids per request, got ${ids.length}`);
  const counts: Record<string, ProxyCounts> = {};
  for (const id of ids) {
    const c = proxyCounts(ctx, id);
    if (c) counts[id] = c;
  }
  return ok({ version: ctx.snapshot.version, counts });
}

/** The /api/proxies handler: the list, or `?counts=ids` for a few proxies. */
export const proxiesHandler = (ctx: ApiContext, query: URLSearchParams): ApiResult => {
  const ids = query.get('counts');
  return ids !== null ? countProxies(ctx, ids) : listProxies(ctx);
};

export interface ProxyDetail {
  version: number;
  proxy: ProxyInfo & { serviceAccount?: string; locality: string };
  /** The summary tables; left out with `?tables=0` (the proxy page builds its rows from the dump). */
  tables?: ProxyTables;
  errors: LoadError[];
  /** The full ConfigDump, as /debug/config_dump prints it. */
  configDump: unknown;
  /**
   * Which VirtualService rule (and delegate) produced each route of the dump, from translation: keyed by
   * route config, virtual host and route index (server/translate/types.ts RouteProvenance).
   */
  provenance: readonly RouteProvenance[];
  /** The Security tab: AuthorizationPolicies that apply (server/api/security.ts). */
  security: ProxySecurity;
}

/** `GET /api/proxies/POD.NS[?tables=0]`: identity, problems, the config dump and (unless `tables=0`) its summary tables. */
export function proxyDetail(ctx: ApiContext, id: string, opts: { tables?: boolean } = {}): ApiResult<ProxyDetail | { error: string }> {
  const proxy = ctx.snapshot.proxiesById.get(id);
  const res = configDumpFor(ctx.snapshot, id, { options: ctx.options, ...(ctx.cache ? { cache: ctx.cache } : {}) });
  if (!proxy || !res) return fail(404, `proxy "${id}" not found`);
  const loc = proxy.locality;
  return ok({
    version: ctx.snapshot.version,
    proxy: {
      ...proxyInfo(proxy),
      ...(proxy.serviceAccount ? { serviceAccount: proxy.serviceAccount } : {}),
      locality: [loc.region, loc.zone, loc.subzone].filter((x) => x).join('/'),
    },
    ...(opts.tables === false ? {} : { tables: tablesFromConfigDump(res.dump) }),
    errors: res.errors,
    configDump: res.dump,
    provenance: res.provenance,
    security: proxySecurity(ctx.snapshot, proxy, ctx.options),
  });
}

/**
 * istiod's /debug/config_dump?proxyID=POD.NS (pilot/pkg/xds/debug.go ConfigDump), with meshscope's
 * `type` selection (`listeners|routes|clusters|endpoints|all`, like `meshscope translate --type`).
 */
export function debugConfigDump(ctx: ApiContext, query: URLSearchParams): ApiResult {
  const id = query.get('proxyID') ?? query.get('proxy') ?? '';
  if (!id) return fail(400, 'You must provide a proxyID in the query string');
  const type = query.get('type') ?? 'all';
  if (!isDumpType(type)) return fail(400, `type must be one of listeners|routes|clusters|endpoints|all, got "${type}"`);
  const res = configDumpFor(ctx.snapshot, id, { type, options: ctx.options, ...(ctx.cache ? { cache: ctx.cache } : {}) });
  if (!res) return fail(404, `proxy "${id}" not found`);
  return ok(res.dump);
}
