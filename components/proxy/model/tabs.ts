// The dump browser's tabs, as one table: id (the `?tab=` value), label, and for the four resource tables
// which rows back them (count and change highlight), the URL parameter of the selected row and the filter
// keys kept in the URL (components/proxy/columns.tsx defines filters with these keys). The tab bar, the
// keyboard navigation, the URL state (urlState.ts) and the panels (DumpBrowser.tsx) all read it.
import type { DumpRows } from '@/server/envoy/dumpModel/rows';

export interface TabDef {
  id: string;
  label: string;
  /** The rows of a resource table tab. */
  rows?: keyof Pick<DumpRows, 'listeners' | 'routes' | 'clusters' | 'endpoints'>;
  /** URL parameter naming the selected row (deep links). */
  select?: string;
  /** Filters kept in the URL. */
  filterKeys?: readonly string[];
  /** Shown only when the browser has a sync tab (connected mesh proxies). */
  needsSync?: boolean;
  /** Shown only for mesh proxies (the Security tab reads the proxy's AuthorizationPolicies). */
  needsSecurity?: boolean;
  /** Shown only for mesh proxies (the EnvoyFilter tab reads the stage's per-patch report). */
  needsEnvoyFilters?: boolean;
  /** Shown only for mesh proxies: the pod's own Envoy config and its drift (GET …/live, …/drift). */
  needsLive?: boolean;
}

export const TAB_DEFS = [
  { id: 'listeners', label: 'Listeners', rows: 'listeners', select: 'listener', filterKeys: ['name', 'address', 'port'] },
  { id: 'routes', label: 'Routes', rows: 'routes', select: 'route', filterKeys: ['name', 'vhost', 'domain'] },
  { id: 'clusters', label: 'Clusters', rows: 'clusters', select: 'cluster', filterKeys: ['fqdn', 'port', 'subset', 'direction'] },
  { id: 'endpoints', label: 'Endpoints', rows: 'endpoints', select: 'endpoint', filterKeys: ['address', 'cluster', 'port'] },
  { id: 'graph', label: 'Route graph' },
  { id: 'trace', label: 'Trace a request' },
  { id: 'security', label: 'Security', needsSecurity: true },
  { id: 'envoyfilters', label: 'EnvoyFilters', select: 'patch', needsEnvoyFilters: true },
  { id: 'raw', label: 'Raw JSON' },
  { id: 'sync', label: 'Sync', needsSync: true },
  { id: 'live', label: 'Live (Envoy)', needsLive: true },
  { id: 'drift', label: 'Drift', needsLive: true },
] as const satisfies readonly TabDef[];

export type Tab = (typeof TAB_DEFS)[number]['id'];

export const TABS: readonly Tab[] = TAB_DEFS.map((t) => t.id);

export const tabDef = (id: Tab): TabDef => TAB_DEFS.find((t) => t.id === id) as TabDef;
