// /debug/adsz is paged and truncated (issue 14 item 7: 2,000 clients with large metadata and subscriptions
// made it a 315 MB response). The shape stays istiod's AdsClients (pilot/pkg/xds/debug.go adsz).
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import type { ConnectionStatus } from '../xds/types';
import { adsz, type AdsClientsJson } from './adsz';

/** A connection as the ADS server reports it, with 5,000 EDS names and ~60 KB of metadata. */
function conn(i: number): ConnectionStatus {
  const pod = `pod-${String(i).padStart(4, '0')}.default`;
  return {
    id: `sidecar~10.0.0.1~${pod}~default.svc.cluster.local-${i}`,
    mode: 'sotw',
    connectedAt: '2026-01-01T00:00:00.000Z',
    pushCount: 1,
    client: {
      nodeId: `sidecar~10.0.0.1~${pod}~default.svc.cluster.local`,
      proxyId: pod,
      ips: ['10.0.0.1'],
      labels: { app: 'x' },
      flavour: 'envoy',
      metadata: { NAMESPACE: 'default', ANNOTATIONS: { big: 'a'.repeat(50_000) }, LIST: Array.from({ length: 300 }, (_, k) => k) },
      peer: 'ipv4:127.0.0.1:1',
    },
    types: [
      { typeUrl: TYPE.cluster, subscribed: '*', pushCount: 1, state: 'SYNCED' },
      {
        typeUrl: TYPE.endpoint,
        subscribed: Array.from({ length: 5000 }, (_, k) => `outbound|80||svc-${k}.default.svc.cluster.local`),
        pushCount: 1,
        state: 'SYNCED',
      },
    ],
  };
}

const conns = Array.from({ length: 2500 }, (_, i) => conn(i));
const body = (r: ReturnType<typeof adsz>) => r.body as AdsClientsJson;

describe('/debug/adsz limits', () => {
  it('pages: 100 clients by default, and says how many were left out', () => {
    const r = adsz(conns);
    expect(r.status).toBe(200);
    expect(body(r)).toMatchObject({ totalClients: 2500, page: 1, limit: 100, omittedClients: 2400 });
    expect(body(r).clients).toHaveLength(100);
    expect(body(r).clients[0]?.connectionId).toBe(conns[0]!.id);
    // Without the bounds this page alone would be ~100 × (60 KB + 250 KB) ≈ 31 MB.
    expect(JSON.stringify(r.body).length).toBeLessThan(3 * 1024 * 1024);
  });

  it('?page and ?limit select a slice (limit capped at 1,000); past the end is empty', () => {
    const r = body(adsz(conns, null, { page: '3', limit: '7' }));
    expect(r.clients.map((c) => c.connectionId)).toEqual(conns.slice(14, 21).map((c) => c.id));
    expect(r.omittedClients).toBe(2493);
    expect(body(adsz(conns, null, { limit: '5000' })).limit).toBe(1000);
    expect(body(adsz(conns, null, { page: '99' })).clients).toEqual([]);
  });

  it('bad paging values are a 400 with the reason', () => {
    for (const [page, limit] of [
      ['0', null],
      ['-1', null],
      ['x', null],
      [null, '1.5'],
      [null, '0'],
    ]) {
      const r = adsz(conns, null, { page, limit });
      expect(r.status).toBe(400);
      expect((r.body as { error: string }).error).toMatch(/must be a positive integer/);
    }
  });

  it('per client: watched names cut at 100 per type, metadata strings and lists cut, with counts', () => {
    const c = body(adsz(conns, 'pod-0007.default')).clients[0]!;
    expect(c.proxy).toBe('pod-0007.default');
    expect(c.watches[TYPE.endpoint]).toHaveLength(100);
    expect(c.watches[TYPE.cluster]).toEqual(['*']);
    expect(c.watchesOmitted).toEqual({ [TYPE.endpoint]: 4900 });
    const ann = (c.metadata['ANNOTATIONS'] as { big: string }).big;
    expect(ann).toMatch(/^a{1024}… \(48976 more characters\)$/);
    expect(c.metadata['LIST']).toHaveLength(100);
    expect(c.metadataOmitted).toBe(1 + 200);
  });
});
