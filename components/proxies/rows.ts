// Pure: the proxies table rows — every proxy the inputs define (computed), joined with the xDS clients
// connected to meshscope's ADS server (/debug/syncz) — plus the table's filter and its URL form.
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
  /** Per type; undefined when not connected. */
  sync?: Record<SyncType, TypeSync>;
  counts?: ResourceCounts;
  errors: number;
}

const STATES: readonly string[] = ['SYNCED', 'NOT SENT', 'STALE', 'ERROR'];

export function syncOf(e: SyncStatus): Record<SyncType, TypeSync> {
  const out = {} as Record<SyncType, TypeSync>;
  for (const { type } of SYNC_TYPES) {
    const raw = e.sync?.[type];
    const state = (raw && STATES.includes(raw) ? raw : 'NOT SENT') as SyncState;
    const nack = e.nacks?.[type];
    const t: TypeSync = { state };
    if (nack && state === 'ERROR') t.nack = `NACK of version ${nack.version}: ${nack.message}`;
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
  for (const e of syncz) if (e.proxy && !byProxy.has(e.proxy)) byProxy.set(e.proxy, e);
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
