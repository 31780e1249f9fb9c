// Assembles an envoy.admin.v3.ConfigDump (as istiod's /debug/config_dump prints it) from encoded resources.
import type { EncodedResource, EnvoyJson } from './encode';
import { DUMP, TYPE } from './typeUrls';

export type DumpSection = 'clusters' | 'listeners' | 'routes' | 'endpoints';
export const DUMP_SECTIONS: readonly DumpSection[] = ['clusters', 'listeners', 'routes', 'endpoints'];

export interface DumpInput {
  version: string;
  /** RFC 3339; the caller supplies the clock. */
  lastUpdated?: string;
  clusters: readonly EncodedResource[];
  listeners: readonly EncodedResource[];
  routes: readonly EncodedResource[];
  endpoints: readonly EncodedResource[];
}

const any = (typeUrl: string, r: EncodedResource): EnvoyJson => ({ '@type': typeUrl, ...r.json });
const stamp = (i: DumpInput): EnvoyJson => ({
  version_info: i.version,
  ...(i.lastUpdated ? { last_updated: i.lastUpdated } : {}),
});

export function buildConfigDump(input: DumpInput, sections: readonly DumpSection[] = DUMP_SECTIONS): EnvoyJson {
  const configs: EnvoyJson[] = [];
  for (const s of DUMP_SECTIONS) {
    if (!sections.includes(s)) continue;
    if (s === 'clusters')
      configs.push({
        '@type': DUMP.clusters,
        dynamic_active_clusters: input.clusters.map((r) => ({ ...stamp(input), cluster: any(TYPE.cluster, r) })),
      });
    if (s === 'listeners')
      configs.push({
        '@type': DUMP.listeners,
        dynamic_listeners: input.listeners.map((r) => ({
          name: r.name,
          active_state: { ...stamp(input), listener: any(TYPE.listener, r) },
        })),
      });
    if (s === 'routes')
      configs.push({
        '@type': DUMP.routes,
        dynamic_route_configs: input.routes.map((r) => ({ ...stamp(input), route_config: any(TYPE.route, r) })),
      });
    if (s === 'endpoints')
      configs.push({
        '@type': DUMP.endpoints,
        dynamic_endpoint_configs: input.endpoints.map((r) => ({ ...stamp(input), endpoint_config: any(TYPE.endpoint, r) })),
      });
  }
  return { configs };
}
