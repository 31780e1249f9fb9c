// Per-connection, per-type sync bookkeeping and istiod's /debug/syncz view of it.
// Sync state follows istiod's debugSyncStatus (pilot/pkg/xds/statusgen.go): nothing sent → NOT SENT,
// last nonce sent was ACKed → SYNCED, otherwise STALE; meshscope adds ERROR when the last response
// was NACKed or could not be sent at all (e.g. over maxResponseBytes).
import type { NackRecord, SyncState, SyncStatus, TypeStatus, ConnectionStatus } from './types';
import { TYPE } from '../envoy/typeUrls';

export class TypeTracker {
  readonly typeUrl: string;
  sentVersion?: string;
  sentNonce?: string;
  /** When the last response was sent (formatted only when a status is read: a wave sends thousands). */
  private sentTime?: Date;
  sentCount?: number;
  ackedVersion?: string;
  ackedNonce?: string;
  lastNack?: NackRecord;
  /** Nonce of the last NACKed response (ERROR while it is the last sent). */
  nackedNonce?: string;
  lastError?: { message: string; time: string };
  /** A send failed after the last successful send. */
  errorPending = false;
  pushCount = 0;

  constructor(typeUrl: string) {
    this.typeUrl = typeUrl;
  }

  sent(version: string, nonce: string, count: number, at: Date): void {
    this.sentVersion = version;
    this.sentNonce = nonce;
    this.sentTime = at;
    this.sentCount = count;
    this.pushCount++;
    this.errorPending = false;
  }

  get sentAt(): string | undefined {
    return this.sentTime?.toISOString();
  }

  acked(nonce: string, version: string): void {
    this.ackedNonce = nonce;
    this.ackedVersion = version;
  }

  nacked(nonce: string, code: number, message: string, at: Date): void {
    this.nackedNonce = nonce;
    this.lastNack = { nonce, version: this.sentVersion ?? '', code, message, time: at.toISOString() };
  }

  failed(message: string, at: Date): void {
    this.lastError = { message, time: at.toISOString() };
    this.errorPending = true;
  }

  get state(): SyncState {
    if (this.errorPending) return 'ERROR';
    if (!this.sentNonce) return 'NOT SENT';
    if (this.nackedNonce === this.sentNonce) return 'ERROR';
    if (this.ackedNonce === this.sentNonce) return 'SYNCED';
    return 'STALE';
  }

  toStatus(subscribed: string[] | '*'): TypeStatus {
    const s: TypeStatus = { typeUrl: this.typeUrl, subscribed, pushCount: this.pushCount, state: this.state };
    if (this.sentVersion !== undefined) s.sentVersion = this.sentVersion;
    if (this.sentNonce !== undefined) s.sentNonce = this.sentNonce;
    if (this.sentTime !== undefined) s.sentAt = this.sentTime.toISOString();
    if (this.sentCount !== undefined) s.sentCount = this.sentCount;
    if (this.ackedVersion !== undefined) s.ackedVersion = this.ackedVersion;
    if (this.ackedNonce !== undefined) s.ackedNonce = this.ackedNonce;
    if (this.lastNack) s.lastNack = this.lastNack;
    if (this.lastError) s.lastError = this.lastError;
    return s;
  }
}

/** Short names used by istiod's SyncStatus JSON (cluster_sent, listener_acked, …). */
const SYNCZ_FIELDS: ReadonlyArray<[string, string]> = [
  [TYPE.cluster, 'cluster'],
  [TYPE.listener, 'listener'],
  [TYPE.route, 'route'],
  [TYPE.endpoint, 'endpoint'],
];

/**
 * One entry of istiod's /debug/syncz (pilot/pkg/xds/debug.go SyncStatus): `proxy`, `proxy_type`,
 * `cluster_id`, `proxy_version`, and `<type>_sent` / `<type>_acked` nonces; meshscope adds
 * `connection_id`, `sync` (state per short type), `nacks` (text of the last NACK per type, cut to
 * maxNackMessageChars), `matched_by` / `matched_proxy` and `blocked_since` (a response not yet read).
 */
export function syncStatusOf(c: ConnectionStatus): SyncStatus {
  const out: SyncStatus = { proxy: c.client.proxyId };
  if (c.client.clusterId) out['cluster_id'] = c.client.clusterId;
  if (c.client.nodeType) out['proxy_type'] = c.client.nodeType;
  // meshscope: which generator serves it (Envoy config, or istiod's grpcgen for proxyless gRPC).
  out['flavour'] = c.client.flavour;
  // istiod: proxy_version is the proxy's ISTIO_VERSION metadata (istio_version is istiod's own; omitted).
  const proxyVersion = c.client.metadata['ISTIO_VERSION'];
  if (typeof proxyVersion === 'string') out['proxy_version'] = proxyVersion;
  const sync: Record<string, SyncState> = {};
  const nacks: Record<string, NackRecord> = {};
  for (const [typeUrl, short] of SYNCZ_FIELDS) {
    const t = c.types.find((x) => x.typeUrl === typeUrl);
    sync[short] = t?.state ?? 'NOT SENT';
    if (!t) continue;
    if (t.sentNonce) (out as Record<string, unknown>)[`${short}_sent`] = t.sentNonce;
    if (t.ackedNonce) (out as Record<string, unknown>)[`${short}_acked`] = t.ackedNonce;
    if (t.lastNack) nacks[short] = t.lastNack;
  }
  out['connection_id'] = c.id;
  out['mode'] = c.mode;
  // meshscope: how the client was matched to the proxy served (node id, ip, or node metadata only).
  if (c.matchedBy) out['matched_by'] = c.matchedBy;
  if (c.matchedProxy) out['matched_proxy'] = c.matchedProxy;
  if (c.backpressure?.blocked) out['blocked_since'] = c.backpressure.blockedSince;
  out['sync'] = sync;
  if (Object.keys(nacks).length > 0) out['nacks'] = nacks;
  return out;
}
