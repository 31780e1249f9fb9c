// Proxies: the list (id, type, namespace, labels, ips + resource counts) and one proxy's detail.
import type { LoadError, MeshSnapshot, ProxyModel } from '../model/mesh';
import { configDumpFor, isDumpType } from '../pipeline/configDump';
import { proxyResources } from '../pipeline/proxyResources';
import { tablesFromConfigDump, type ProxyTables } from './summary/index';
import { fail, ok, type ApiContext, type ApiResult } from './types';

/** Exactly what `meshscope proxies -o json` prints per proxy (DESIGN.md §3). */
export interface ProxyInfo {
  id: string;
  type: 'sidecar' | 'router';
  namespace: string;
  labels: Record<string, string>;
  ips: string[];
}

export interface ResourceCounts {
  listeners: number;
  routes: number;
  clusters: number;
  endpoints: number;
}

export interface ProxySummary extends ProxyInfo {
  counts: ResourceCounts;
  /** Translation problems for this proxy. */
  errors: number;
}

export const proxyInfo = (p: ProxyModel): ProxyInfo => ({
  id: p.id,
  type: p.type,
  namespace: p.namespace,
  labels: { ...p.labels },
  ips: [...p.ips],
});

export const listProxyInfo = (s: MeshSnapshot): ProxyInfo[] => s.proxies.map(proxyInfo);

export function listProxies(ctx: ApiContext): ApiResult<{ version: number; proxies: ProxySummary[] }> {
  const proxies = ctx.snapshot.proxies.map((p): ProxySummary => {
    const r = proxyResources(ctx.snapshot, p.id, ctx.options, ctx.cache);
    return {
      ...proxyInfo(p),
      counts: {
        listeners: r?.listeners.length ?? 0,
        routes: r?.routes.length ?? 0,
        clusters: r?.clusters.length ?? 0,
        endpoints: r?.endpoints.length ?? 0,
      },
      errors: r?.errors.length ?? 0,
    };
  });
  return ok({ version: ctx.snapshot.version, proxies });
}

export interface ProxyDetail {
  version: number;
  proxy: ProxyInfo & { serviceAccount?: string; locality: string };
  tables: ProxyTables;
  errors: LoadError[];
  /** The full ConfigDump, as /debug/config_dump prints it. */
  configDump: unknown;
}

export function proxyDetail(ctx: ApiContext, id: string): ApiResult<ProxyDetail | { error: string }> {
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
    tables: tablesFromConfigDump(res.dump),
    errors: res.errors,
    configDump: res.dump,
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
