// istiod's sync view in a bug-report: `istio/<ns>/<istiod>/debug/syncz` (istiod's /debug/syncz, pilot/pkg/xds/
// debug.go Syncz: a JSON array of SyncStatus — `proxy`, `proxy_type`, `cluster_id`, `istio_version`, the
// `<type>_sent` / `<type>_acked` nonces, and `resources`: type URL → {sent, acked, sentTime, lastError}). Read
// into meshscope's syncz entries (server/xds/types.ts SyncStatus) with the state per type computed as istiod
// computes it for `istioctl proxy-status` (pilot/pkg/xds/statusgen.go debugSyncStatus: a last error → ERROR, no
// nonce sent → NOT SENT, acked == sent → SYNCED, else STALE), marked `source: "bug-report"` and with the
// istiod (`ns/pod`) that wrote it. Pure over the archive's read contents (the entry limits of read.ts apply).
import { TYPE } from '../envoy/typeUrls';
import type { LoadError } from '../model/mesh';
import type { SyncState, SyncStatus } from '../xds/types';
import type { ArchiveContents } from './read';

/** Entries read from one syncz file at most (istiod lists each connected proxy once). */
export const MAX_SYNCZ_ENTRIES = 100_000;
/** A lastError longer than this is cut (Envoy's NACK text can hold a whole resource). */
const MAX_ERROR_CHARS = 2_000;

const SHORT: ReadonlyArray<[string, 'cluster' | 'listener' | 'route' | 'endpoint']> = [
  [TYPE.cluster, 'cluster'],
  [TYPE.listener, 'listener'],
  [TYPE.route, 'route'],
  [TYPE.endpoint, 'endpoint'],
];
/** istiod's SyncStatus string fields, copied as they are. */
const FIELDS = [
  'cluster_id',
  'proxy_type',
  'proxy_version',
  'istio_version',
  'cluster_sent',
  'cluster_acked',
  'listener_sent',
  'listener_acked',
  'route_sent',
  'route_acked',
  'endpoint_sent',
  'endpoint_acked',
  'extensionconfig_sent',
  'extensionconfig_acked',
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (o: Obj | undefined, k: string): string => (o && typeof o[k] === 'string' ? (o[k] as string) : '');

export interface ResourceSync {
  sent?: string;
  acked?: string;
  sentTime?: string;
  lastError?: string;
}

/** debugSyncStatus over one watched type: the nonces from `resources`, else the `<type>_sent` / `_acked` fields. */
export function typeState(sent: string, acked: string, lastError: string): SyncState {
  if (lastError !== '') return 'ERROR';
  if (sent === '') return 'NOT SENT';
  return acked === sent ? 'SYNCED' : 'STALE';
}

function entryOf(raw: Obj, istiod: string, source: SyncStatus['source']): SyncStatus {
  const out: SyncStatus = { proxy: s(raw, 'proxy') };
  for (const f of FIELDS) {
    const v = s(raw, f);
    if (v !== '') out[f] = v;
  }
  const resources: Record<string, ResourceSync> = {};
  if (isObj(raw['resources']))
    for (const [url, r] of Object.entries(raw['resources'])) {
      if (!isObj(r)) continue;
      const rs: ResourceSync = {};
      for (const k of ['sent', 'acked', 'sentTime'] as const) if (s(r, k) !== '') rs[k] = s(r, k);
      if (s(r, 'lastError') !== '') rs.lastError = s(r, 'lastError').slice(0, MAX_ERROR_CHARS);
      resources[url] = rs;
    }
  const sync: Record<string, SyncState> = {};
  for (const [url, short] of SHORT) {
    const r = resources[url];
    sync[short] = typeState(r?.sent ?? s(raw, `${short}_sent`), r?.acked ?? s(raw, `${short}_acked`), r?.lastError ?? '');
  }
  if (Object.keys(resources).length > 0) out.resources = resources;
  out.sync = sync;
  out.source = source;
  out.istiod = istiod;
  return out;
}

/** Every syncz entry of the archive (each istiod's, in entry order), and located problems with the files. */
export function archiveSyncz(a: ArchiveContents): { entries: SyncStatus[]; errors: LoadError[] } {
  const entries: SyncStatus[] = [];
  const errors: LoadError[] = [];
  for (const f of a.files) {
    if (f.role.role !== 'syncz') continue;
    const file = `${a.source}:${f.path}`;
    const bad = (message: string) => errors.push({ severity: 'error', message: `istiod's syncz: ${message}`, file });
    let parsed: unknown;
    try {
      parsed = JSON.parse(f.text);
    } catch (e) {
      bad(`not JSON: ${(e as Error).message}`);
      continue;
    }
    // istiod writes `null` for no clients in older releases (a nil slice), `[]` since.
    if (parsed === null) continue;
    if (!Array.isArray(parsed)) {
      bad('not a JSON array of SyncStatus (pilot/pkg/xds/debug.go)');
      continue;
    }
    if (parsed.length > MAX_SYNCZ_ENTRIES) bad(`${parsed.length} entries; only the first ${MAX_SYNCZ_ENTRIES} are read`);
    const istiod = `${f.role.namespace}/${f.role.pod}`;
    parsed.slice(0, MAX_SYNCZ_ENTRIES).forEach((raw, i) => {
      if (!isObj(raw) || s(raw, 'proxy') === '') bad(`[${i}]: not a SyncStatus with a "proxy"`);
      else entries.push(entryOf(raw, istiod, a.kind));
    });
  }
  return { entries, errors };
}
