// Pure: the proxies table rows — every proxy the inputs define (computed), joined with the xDS clients
// connected to meshscope's ADS server (/debug/syncz) — plus the table's filter and its URL form. Offline
// (`serve --bug-report`), /debug/syncz also carries istiod's own syncz from the archive (`source:
// "bug-report"`): a proxy no client connected for shows istiod's sync state, marked as the archive's.
import type { SyncStatus } from '@/server/api/contract';
import type { ProxyCounts, ProxySummary, ResourceCounts } from '@/server/api/contract';

export type SyncType = 'cluster' | 'listener' | 'route' | 'endpoint';
export const SYNC_TYPES: ReadonlyArray<{ type: SyncType; short: string }> = [
  { type: 'cluster', short: 'CDS' },
  { type: 'listener', short: 'LDS' },
  { type: 'route', short: 'RDS' },
  { type: 'endpoint', short: 'EDS' },
];

/** istiod's sync states (statusgen.go debugSyncStatus) plus meshscope's ERROR for a NACKed/unsendable response. */
export type SyncState = 'SYNCED' | 'NOT SENT' | 'STALE' | 'ERROR';

export interface TypeSync {
  state: SyncState;
  /** The client's NACK text (error_detail.message) and the rejected version. */
  nack?: string;
}

export type ProxyKind = 'sidecar' | 'gateway' | 'waypoint' | 'proxyless';

export interface ProxyRow {
  id: string;
  kind: ProxyKind;
  namespace: string;
  labels: Record<string, string>;
  ips: string[];
  /** The inputs define this proxy (config is computed for it). */
  computed: boolean;
  /** An xDS client with this proxy id is connected. */
  connected: boolean;
  /** Per type; undefined when not connected (and no archive's istiod reported it). */
  sync?: Record<SyncType, TypeSync>;
  /** The sync state is istiod's, read from an archive (`istioctl proxy-status` on a bug-report), not meshscope's ADS. */
  syncFrom?: { source: string; istiod?: string };
  counts?: ResourceCounts;
  errors: number;
}

const STATES: readonly string[] = ['SYNCED', 'NOT SENT', 'STALE', 'ERROR'];
const TYPE_SUFFIX: Record<SyncType, string> = {
  cluster: '.Cluster',
  listener: '.Listener',
  route: '.RouteConfiguration',
  endpoint: '.ClusterLoadAssignment',
};

export function syncOf(e: SyncStatus): Record<SyncType, TypeSync> {
  const out = {} as Record<SyncType, TypeSync>;
  for (const { type } of SYNC_TYPES) {
    const raw = e.sync?.[type];
    const state = (raw && STATES.includes(raw) ? raw : 'NOT SENT') as SyncState;
    const nack = e.nacks?.[type];
    const t: TypeSync = { state };
    if (nack && state === 'ERROR') t.nack = `NACK of version ${nack.version}: ${nack.message}`;
    // An archive's istiod: its last error for the type (debug.go ResourceStatus.lastError).
    const lastError = Object.entries(e.resources ?? {}).find(([url]) => url.endsWith(TYPE_SUFFIX[type]))?.[1].lastError;
    if (!t.nack && lastError && state === 'ERROR') t.nack = `istiod: ${lastError}`;
    out[type] = t;
  }
  return out;
}

/** Proxyless gRPC clients announce GENERATOR=grpc (istiod grpcgen); meshscope's syncz may carry it. */
const isProxyless = (e: SyncStatus | undefined) => e?.generator === 'grpc' || e?.flavour === 'grpc';

/**
 * `lazyCounts`: counts fetched for rows the list sent without them (large meshes, `?counts=`); the list's
 * own counts win when both exist (same snapshot version either way).
 */
export function proxyRows(
  proxies: readonly ProxySummary[],
  syncz: readonly SyncStatus[],
  lazyCounts?: ReadonlyMap<string, ProxyCounts>,
): ProxyRow[] {
  const byProxy = new Map<string, SyncStatus>();
  const archived = new Map<string, SyncStatus>();
  for (const e of syncz) {
    const into = e.source ? archived : byProxy;
    if (e.proxy && !into.has(e.proxy)) into.set(e.proxy, e);
  }
  const fromArchive = (row: ProxyRow, a: SyncStatus | undefined) => {
    if (row.sync || !a) return;
    row.sync = syncOf(a);
    row.syncFrom = { source: a.source ?? 'bug-report', ...(a.istiod ? { istiod: a.istiod } : {}) };
  };
  const rows: ProxyRow[] = proxies.map((p) => {
    const e = byProxy.get(p.id);
    const lazy = p.counts ? undefined : lazyCounts?.get(p.id);
    const counts = p.counts ?? lazy?.counts;
    const row: ProxyRow = {
      id: p.id,
      kind: isProxyless(e) ? 'proxyless' : p.type === 'router' ? 'gateway' : p.type === 'waypoint' ? 'waypoint' : 'sidecar',
      namespace: p.namespace,
      labels: p.labels,
      ips: p.ips,
      computed: true,
      connected: !!e,
      errors: p.errors ?? lazy?.errors ?? 0,
    };
    if (counts) row.counts = counts;
    if (e) row.sync = syncOf(e);
    fromArchive(row, archived.get(p.id));
    return row;
  });
  // Clients connected under an id the inputs do not define: shown, with what they were sent.
  const known = new Set(proxies.map((p) => p.id));
  for (const [id, e] of byProxy) {
    if (known.has(id)) continue;
    const ns = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : '';
    rows.push({
      id,
      kind: isProxyless(e) ? 'proxyless' : e.proxy_type === 'router' ? 'gateway' : e.proxy_type === 'waypoint' ? 'waypoint' : 'sidecar',
      namespace: ns,
      labels: {},
      ips: [],
      computed: false,
      connected: true,
      sync: syncOf(e),
      errors: 0,
    });
  }
  // Proxies only the archive's istiod knew (its syncz lists them; no input defines them).
  for (const [id, e] of archived) {
    if (known.has(id) || byProxy.has(id)) continue;
    const row: ProxyRow = {
      id,
      kind: e.proxy_type === 'router' ? 'gateway' : 'sidecar',
      namespace: id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : '',
      labels: {},
      ips: [],
      computed: false,
      connected: false,
      errors: 0,
    };
    fromArchive(row, e);
    rows.push(row);
  }
  return rows;
}

export interface ProxyFilter {
  q: string;
  namespace: string;
  kind: ProxyKind | '';
}

export const parseProxyFilter = (p: Pick<URLSearchParams, 'get'>): ProxyFilter => {
  const kind = p.get('type') ?? '';
  return {
    q: p.get('q') ?? '',
    namespace: p.get('ns') ?? '',
    kind: kind === 'sidecar' || kind === 'gateway' || kind === 'waypoint' || kind === 'proxyless' ? kind : '',
  };
};

export function proxyFilterToParams(f: ProxyFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.namespace) p.set('ns', f.namespace);
  if (f.kind) p.set('type', f.kind);
  return p;
}

/** Text matches id, namespace, an IP or a `key=value` label (case-insensitive substring). */
export function filterRows(rows: readonly ProxyRow[], f: ProxyFilter): ProxyRow[] {
  const q = f.q.trim().toLowerCase();
  return rows.filter((r) => {
    if (f.namespace && r.namespace !== f.namespace) return false;
    if (f.kind && r.kind !== f.kind) return false;
    if (!q) return true;
    const hay = [r.id, r.namespace, ...r.ips, ...Object.entries(r.labels).map(([k, v]) => `${k}=${v}`)].join(' ').toLowerCase();
    return q.split(/\s+/).every((t) => hay.includes(t));
  });
}
