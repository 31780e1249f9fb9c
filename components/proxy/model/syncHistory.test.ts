import { describe, expect, it } from 'vitest';
import type { ProxySyncResult } from '@/server/api/contract';
import { syncEvents } from './syncHistory';

const conn = (types: ProxySyncResult['connections'][number]['types']): ProxySyncResult => ({
  proxy: 'p.ns',
  connected: true,
  connections: [{ connectionId: 'c-1', mode: 'sotw', types }],
});

describe('sync timeline events', () => {
  it('a new connection, then sends, ACKs and a NACK with the rejected version', () => {
    const t0 = conn([{ type: 'cluster', state: 'SYNCED', sentNonce: '1', ackedNonce: '1', sentVersion: 'v1', ackedVersion: 'v1' }]);
    const e0 = syncEvents(undefined, t0, 't0');
    expect(e0.map((e) => e.kind)).toEqual(['connected', 'sent', 'acked']);
    const t1 = conn([
      {
        type: 'cluster',
        state: 'ERROR',
        sentNonce: '2',
        ackedNonce: '1',
        sentVersion: 'v2',
        ackedVersion: 'v1',
        nack: { nonce: '2', version: 'v2', message: 'bad cluster', code: 3, time: 't1' },
      },
    ]);
    const e1 = syncEvents(t0, t1, 't1');
    expect(e1.map((e) => e.kind)).toEqual(['sent', 'nack']);
    expect(e1[1]!.text).toBe('NACK of version v2 (nonce 2): bad cluster');
    expect(syncEvents(t1, t1, 't2')).toEqual([]);
  });

  it('a closed stream is reported', () => {
    const t0 = conn([]);
    expect(syncEvents(t0, { proxy: 'p.ns', connected: false, connections: [] }, 't1')).toEqual([
      { at: 't1', connection: 'c-1', type: '', kind: 'disconnected', text: 'stream closed' },
    ]);
  });
});
