// One proxy's xDS sync state for the proxy page's sync timeline: its ADS connections, per type the
// state, the version + nonce sent and acked, and the last NACK with its text and the version it rejected.
// Read from the ADS server's connection statuses when the caller has them, else from its /debug/syncz
// entries (istiod's SyncStatus carries nonces, not versions).
import { asNonEmptyString } from '../lib/json';
import { TYPE } from '../envoy/typeUrls';
import type { ConnectionStatus } from '../xds/types';
import { fail, ok, type ApiContext, type ApiResult } from './types';

export const SYNC_TYPES = ['listener', 'route', 'cluster', 'endpoint'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export interface TypeSync {
  type: SyncType;
  /** SYNCED | NOT SENT | STALE | ERROR (istiod's statusgen wording, plus ERROR for a NACK). */
  state: string;
  sentNonce?: string;
  ackedNonce?: string;
  sentVersion?: string;
  ackedVersion?: string;
  nack?: { nonce: string; version: string; message: string; code: number; time: string };
}

export interface ConnectionSync {
  connectionId: string;
  mode: string;
  types: TypeSync[];
}

export interface ProxySyncResult {
  proxy: string;
  connected: boolean;
  connections: ConnectionSync[];
}

type Entry = Record<string, unknown>;
const s = asNonEmptyString;

export function connectionSync(e: Entry): ConnectionSync {
  const sync = (e['sync'] ?? {}) as Record<string, unknown>;
  const nacks = (e['nacks'] ?? {}) as Record<string, TypeSync['nack']>;
  const types = SYNC_TYPES.map((type): TypeSync => {
    const t: TypeSync = { type, state: s(sync[type]) ?? 'NOT SENT' };
    const sent = s(e[`${type}_sent`]);
    const acked = s(e[`${type}_acked`]);
    const sentV = s(e[`${type}_sent_version`]);
    const ackedV = s(e[`${type}_acked_version`]);
    if (sent) t.sentNonce = sent;
    if (acked) t.ackedNonce = acked;
    if (sentV) t.sentVersion = sentV;
    if (ackedV) t.ackedVersion = ackedV;
    const nack = nacks[type];
    if (nack && typeof nack === 'object') t.nack = nack;
    return t;
  });
  return { connectionId: s(e['connection_id']) ?? '', mode: s(e['mode']) ?? 'sotw', types };
}

/** From the ADS server's own bookkeeping (server/xds/status.ts TypeTracker), versions included. */
export function connectionSyncFromStatus(c: ConnectionStatus): ConnectionSync {
  const types = SYNC_TYPES.map((type): TypeSync => {
    const st = c.types.find((t) => t.typeUrl === TYPE[type]);
    const t: TypeSync = { type, state: st?.state ?? 'NOT SENT' };
    if (!st) return t;
    if (st.sentNonce) t.sentNonce = st.sentNonce;
    if (st.ackedNonce) t.ackedNonce = st.ackedNonce;
    if (st.sentVersion) t.sentVersion = st.sentVersion;
    if (st.ackedVersion) t.ackedVersion = st.ackedVersion;
    if (st.lastNack) t.nack = { ...st.lastNack };
    return t;
  });
  return { connectionId: c.id, mode: c.mode, types };
}

/** `connections`: the ADS server's connection statuses (runtime.adsConnections()), preferred over syncz. */
export function proxySync(
  ctx: ApiContext,
  id: string,
  connections?: readonly ConnectionStatus[],
): ApiResult<ProxySyncResult | { error: string }> {
  if (!ctx.snapshot.proxiesById.get(id)) return fail(404, `proxy "${id}" not found`);
  if (connections) {
    const mine = connections.filter((c) => c.client.proxyId === id);
    return ok({ proxy: id, connected: mine.length > 0, connections: mine.map(connectionSyncFromStatus) });
  }
  const entries = (ctx.sync?.() ?? []) as unknown as Entry[];
  const mine = entries.filter((e) => e['proxy'] === id);
  return ok({ proxy: id, connected: mine.length > 0, connections: mine.map(connectionSync) });
}
