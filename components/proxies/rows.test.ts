// Proxies table rows: computed proxies joined with /debug/syncz. Sync states are istiod's
// (pilot/pkg/xds/statusgen.go debugSyncStatus: SYNCED / NOT SENT / STALE) plus ERROR for a NACK.
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '@/server/api/contract';
import type { ProxySummary } from '@/server/api/contract';
import { filterRows, parseProxyFilter, proxyFilterToParams, proxyRows, syncOf } from './rows';

const counts = { listeners: 3, routes: 2, clusters: 7, endpoints: 5 };
const proxies: ProxySummary[] = [
  { id: 'web-1.shop', type: 'sidecar', namespace: 'shop', labels: { app: 'web', version: 'v1' }, ips: ['10.0.0.1'], counts, errors: 0 },
  {
    id: 'gw-1.istio-system',
    type: 'router',
    namespace: 'istio-system',
    labels: { istio: 'ingressgateway' },
    ips: ['10.0.0.2'],
    counts,
    errors: 1,
  },
  { id: 'cart-1.shop', type: 'sidecar', namespace: 'shop', labels: { app: 'cart' }, ips: ['10.0.0.3'], counts, errors: 0 },
];
const syncz: SyncStatus[] = [
  {
    proxy: 'web-1.shop',
    proxy_type: 'sidecar',
    sync: { cluster: 'SYNCED', listener: 'ERROR', route: 'STALE', endpoint: 'NOT SENT' },
    nacks: { listener: { nonce: 'n3', version: 'v7', code: 13, message: 'duplicate listener 0.0.0.0_80', time: '2026-01-01T00:00:00Z' } },
  },
  {
    proxy: 'grpc-client.shop',
    proxy_type: 'sidecar',
    generator: 'grpc',
    sync: { cluster: 'SYNCED', listener: 'SYNCED', route: 'SYNCED', endpoint: 'SYNCED' },
  },
];

describe('proxyRows', () => {
  const rows = proxyRows(proxies, syncz);

  it('computed proxies keep their order; routers are gateways; unconnected ones have no sync state', () => {
    expect(rows.map((r) => [r.id, r.kind, r.computed, r.connected])).toEqual([
      ['web-1.shop', 'sidecar', true, true],
      ['gw-1.istio-system', 'gateway', true, false],
      ['cart-1.shop', 'sidecar', true, false],
      ['grpc-client.shop', 'proxyless', false, true],
    ]);
    expect(rows[1]!.sync).toBeUndefined();
  });

  it('per-type sync state, with the NACK text on the ERROR type only', () => {
    expect(rows[0]!.sync).toEqual({
      cluster: { state: 'SYNCED' },
      listener: { state: 'ERROR', nack: 'NACK of version v7: duplicate listener 0.0.0.0_80' },
      route: { state: 'STALE' },
      endpoint: { state: 'NOT SENT' },
    });
  });

  it('a connected client the inputs do not define is listed as connected-only, namespace from its id', () => {
    expect(rows[3]).toMatchObject({ namespace: 'shop', computed: false });
    expect(rows[3]!.counts).toBeUndefined();
  });

  it('missing or unknown states read as NOT SENT', () => {
    expect(syncOf({ sync: { cluster: 'WEIRD' } }).cluster.state).toBe('NOT SENT');
    expect(syncOf({}).route.state).toBe('NOT SENT');
  });
});

describe('filterRows', () => {
  const rows = proxyRows(proxies, syncz);
  const f = (q = '', namespace = '', kind: '' | 'sidecar' | 'gateway' | 'proxyless' = '') =>
    filterRows(rows, { q, namespace, kind }).map((r) => r.id);

  it('by text: id, label key=value, IP; several words must all match', () => {
    expect(f('cart')).toEqual(['cart-1.shop']);
    expect(f('version=v1')).toEqual(['web-1.shop']);
    expect(f('10.0.0.2')).toEqual(['gw-1.istio-system']);
    expect(f('shop app=web')).toEqual(['web-1.shop']);
  });

  it('by namespace and type', () => {
    expect(f('', 'shop')).toEqual(['web-1.shop', 'cart-1.shop', 'grpc-client.shop']);
    expect(f('', '', 'gateway')).toEqual(['gw-1.istio-system']);
    expect(f('', 'shop', 'proxyless')).toEqual(['grpc-client.shop']);
  });

  it('URL state round-trips; bad types are dropped', () => {
    const x = { q: 'web', namespace: 'shop', kind: 'sidecar' as const };
    expect(parseProxyFilter(proxyFilterToParams(x))).toEqual(x);
    expect(proxyFilterToParams({ q: '', namespace: '', kind: '' }).toString()).toBe('');
    expect(parseProxyFilter(new URLSearchParams('type=bogus')).kind).toBe('');
  });
});

describe('proxyRows with lazily fetched counts (large meshes)', () => {
  it('rows the list sent without counts take the fetched ones; the list’s own counts win; unknown stay empty', () => {
    const bare: ProxySummary[] = [
      { id: 'a.ns', type: 'sidecar', namespace: 'ns', labels: {}, ips: [] },
      { id: 'b.ns', type: 'sidecar', namespace: 'ns', labels: {}, ips: [] },
      { id: 'c.ns', type: 'sidecar', namespace: 'ns', labels: {}, ips: [], counts, errors: 0 },
    ];
    const fetched = { counts: { listeners: 1, routes: 1, clusters: 10_006, endpoints: 9 }, errors: 2 };
    const rows = proxyRows(
      bare,
      [],
      new Map([
        ['a.ns', fetched],
        ['c.ns', fetched],
      ]),
    );
    expect(rows.map((r) => [r.id, r.counts?.clusters, r.errors])).toEqual([
      ['a.ns', 10_006, 2],
      ['b.ns', undefined, 0],
      ['c.ns', 7, 0],
    ]);
  });
});

// Offline (`serve --bug-report`): /debug/syncz also carries the archive's istiod syncz (server/archive/syncz.ts,
// `source: "bug-report"`); the proxies table shows istiod's state for proxies no client connected for.
describe('proxyRows with an archive’s istiod syncz', () => {
  const archived: SyncStatus[] = [
    {
      proxy: 'cart-1.shop',
      source: 'bug-report',
      istiod: 'istio-system/istiod-abc',
      sync: { cluster: 'SYNCED', listener: 'ERROR', route: 'STALE', endpoint: 'SYNCED' },
      resources: {
        'type.googleapis.com/envoy.config.listener.v3.Listener': { sent: 'a', acked: 'a', lastError: 'duplicate filter chain match' },
      },
    },
    // A connected client wins over the archive's view of the same proxy.
    {
      proxy: 'web-1.shop',
      source: 'bug-report',
      istiod: 'istio-system/istiod-abc',
      sync: { cluster: 'STALE', listener: 'STALE', route: 'STALE', endpoint: 'STALE' },
    },
    {
      proxy: 'gone-1.shop',
      source: 'bug-report',
      istiod: 'istio-system/istiod-abc',
      proxy_type: 'router',
      sync: { cluster: 'SYNCED', listener: 'SYNCED', route: 'SYNCED', endpoint: 'SYNCED' },
    },
  ];
  const rows = proxyRows(proxies, [...syncz, ...archived]);

  it('a proxy the archive’s istiod reported shows istiod’s state, marked as the archive’s, not connected', () => {
    const cart = rows.find((r) => r.id === 'cart-1.shop')!;
    expect(cart.connected).toBe(false);
    expect(cart.syncFrom).toEqual({ source: 'bug-report', istiod: 'istio-system/istiod-abc' });
    expect(cart.sync).toEqual({
      cluster: { state: 'SYNCED' },
      listener: { state: 'ERROR', nack: 'istiod: duplicate filter chain match' },
      route: { state: 'STALE' },
      endpoint: { state: 'SYNCED' },
    });
  });

  it('a connected client’s own state wins; a proxy only the archive knows is listed (not computed, not connected)', () => {
    const web = rows.find((r) => r.id === 'web-1.shop')!;
    expect(web.connected).toBe(true);
    expect(web.syncFrom).toBeUndefined();
    expect(web.sync?.cluster.state).toBe('SYNCED');
    expect(rows.find((r) => r.id === 'gone-1.shop')).toMatchObject({
      computed: false,
      connected: false,
      kind: 'gateway',
      namespace: 'shop',
      syncFrom: { source: 'bug-report' },
    });
  });
});

describe('waypoints (istiod proxy type waypoint, `proxy waypoint`)', () => {
  const wp: ProxySummary = {
    id: 'waypoint-1.orders',
    type: 'waypoint',
    namespace: 'orders',
    labels: {},
    ips: ['10.0.0.9'],
    counts,
    errors: 0,
  };
  it('are rows of kind waypoint, not sidecars, and the type filter takes them', () => {
    const rows = proxyRows([...proxies, wp], syncz);
    expect(rows.find((r) => r.id === wp.id)?.kind).toBe('waypoint');
    expect(filterRows(rows, { q: '', namespace: '', kind: 'waypoint' }).map((r) => r.id)).toEqual([wp.id]);
    expect(parseProxyFilter(new URLSearchParams('type=waypoint')).kind).toBe('waypoint');
  });
});
