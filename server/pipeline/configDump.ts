// The ConfigDump for one proxy, as istiod's /debug/config_dump and `meshscope translate` print it.
import { buildConfigDump, DUMP_SECTIONS, type DumpSection } from '../envoy/configDump';
import type { EnvoyJson } from '../envoy/encode';
import { optionsOf, type LoadError, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import type { EnvoyFilterPatchReport, RouteProvenance } from '../translate/types';
import { proxyResources, type ResourceCache } from './proxyResources';

/** `--type` / `?type=`: one section or all of them. */
export type DumpType = DumpSection | 'all';
export const DUMP_TYPES: readonly DumpType[] = ['listeners', 'routes', 'clusters', 'endpoints', 'all'];

export const isDumpType = (s: string): s is DumpType => (DUMP_TYPES as readonly string[]).includes(s);

export interface ConfigDumpOptions {
  type?: DumpType;
  options?: TranslateOptions;
  cache?: ResourceCache;
  /** RFC 3339; only when the caller has a clock to offer (the CLI and tests print none: deterministic). */
  lastUpdated?: string;
}

export interface ConfigDumpResult {
  dump: EnvoyJson;
  errors: LoadError[];
  /** Which VirtualService rule produced each route of the dump (from translation). */
  provenance: readonly RouteProvenance[];
  /** Per EnvoyFilter config patch: applied or not, where, or why not (empty when none concerns the proxy). */
  envoyFilters: readonly EnvoyFilterPatchReport[];
}

/** undefined when the proxy is unknown. */
export function configDumpFor(snapshot: MeshSnapshot, proxyId: string, opts: ConfigDumpOptions = {}): ConfigDumpResult | undefined {
  const res = proxyResources(snapshot, proxyId, opts.options ?? optionsOf(snapshot), opts.cache);
  if (!res) return undefined;
  const type = opts.type ?? 'all';
  const sections: readonly DumpSection[] = type === 'all' ? DUMP_SECTIONS : [type];
  const dump = buildConfigDump(
    {
      version: String(snapshot.version),
      ...(opts.lastUpdated ? { lastUpdated: opts.lastUpdated } : {}),
      listeners: res.listeners,
      routes: res.routes,
      clusters: res.clusters,
      endpoints: res.endpoints,
    },
    sections,
  );
  return { dump, errors: res.errors, provenance: res.provenance, envoyFilters: res.envoyFilters ?? [] };
}
