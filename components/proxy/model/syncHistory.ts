// The sync timeline as the page observes it: each refetch of a proxy's sync state is compared with the
// previous one and turned into events (sent / acked / NACKed per type). Pure.
import type { ProxySyncResult, TypeSync } from '@/server/api/contract';

export interface SyncEvent {
  at: string;
  connection: string;
  type: string;
  kind: 'sent' | 'acked' | 'nack' | 'connected' | 'disconnected';
  text: string;
}

const ref = (nonce?: string, version?: string) => (version ? `version ${version} (nonce ${nonce ?? '?'})` : `nonce ${nonce ?? '?'}`);

export function syncEvents(before: ProxySyncResult | undefined, after: ProxySyncResult, at: string): SyncEvent[] {
  const out: SyncEvent[] = [];
  const prev = new Map((before?.connections ?? []).map((c) => [c.connectionId, c]));
  const now = new Set(after.connections.map((c) => c.connectionId));
  for (const c of after.connections) {
    const p = prev.get(c.connectionId);
    if (!p) out.push({ at, connection: c.connectionId, type: '', kind: 'connected', text: `${c.mode} stream opened` });
    for (const t of c.types) {
      const o: TypeSync | undefined = p?.types.find((x) => x.type === t.type);
      if (t.sentNonce && t.sentNonce !== o?.sentNonce)
        out.push({ at, connection: c.connectionId, type: t.type, kind: 'sent', text: `sent ${ref(t.sentNonce, t.sentVersion)}` });
      if (t.ackedNonce && t.ackedNonce !== o?.ackedNonce)
        out.push({ at, connection: c.connectionId, type: t.type, kind: 'acked', text: `ACK ${ref(t.ackedNonce, t.ackedVersion)}` });
      if (t.nack && t.nack.nonce !== o?.nack?.nonce)
        out.push({
          at,
          connection: c.connectionId,
          type: t.type,
          kind: 'nack',
          text: `NACK of version ${t.nack.version} (nonce ${t.nack.nonce}): ${t.nack.message}`,
        });
    }
  }
  for (const id of prev.keys()) if (!now.has(id)) out.push({ at, connection: id, type: '', kind: 'disconnected', text: 'stream closed' });
  return out;
}
