// Query key factories: the one place keys are spelled, so invalidation matches what hooks use.
export const queryKeys = {
  all: ['meshscope'] as const,
  proxies: () => [...queryKeys.all, 'proxies'] as const,
  proxy: (id: string) => [...queryKeys.all, 'proxy', id] as const,
  /** Prefix of every proxy detail query (an event reaching every proxy invalidates them all). */
  everyProxy: () => [...queryKeys.all, 'proxy'] as const,
  /** Counts of a few proxies at one snapshot version (the proxies page asks for the rows it shows). */
  proxyCounts: (version: number, ids: readonly string[]) => [...queryKeys.all, 'proxyCounts', String(version), ids.join(',')] as const,
  errors: () => [...queryKeys.all, 'errors'] as const,
  /** A pod's own Envoy dump and its drift (not under `proxy`: a mesh event does not refetch a port-forward). */
  live: (id: string) => [...queryKeys.all, 'live', id] as const,
  drift: (id: string, version: number, summary = false) =>
    [...queryKeys.all, 'drift', id, String(version), summary ? 'summary' : 'full'] as const,
  /** The effective mesh config (GET /api/mesh); a mesh config change reaches every proxy (an `all` event). */
  mesh: () => [...queryKeys.all, 'mesh'] as const,
  /** The demo data plane's counters over a window (polled; never invalidated by mesh events). */
  demoTraffic: (windowSeconds: number) => [...queryKeys.all, 'demoTraffic', String(windowSeconds)] as const,
};
