// GET /api/config?path= — the source object behind a route's filter_metadata.istio.config
// (Istio networking/util BuildConfigInfoMetadata writes /apis/GROUP/VERSION/namespaces/NS/KIND/NAME).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { configObject } from './configObject';
import { proxySync } from './proxySync';
import type { ApiContext } from './types';

const vsFile = bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml');
const r = loadPaths([bookinfo('platform', 'bookinfo.yaml'), vsFile]);
const snapshot = buildSnapshot(r.inputs, { version: 7, extraErrors: r.errors });
const ctx: ApiContext = { snapshot, options: DEFAULT_OPTIONS };

describe('configObject', () => {
  it('finds the VirtualService by its provenance path, in configz shape, with where it was read', () => {
    const res = configObject(ctx, '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews');
    expect(res.status).toBe(200);
    const body = res.body as Exclude<typeof res.body, { error: string }>;
    expect(body.object.kind).toBe('VirtualService');
    expect(body.object.metadata).toMatchObject({ name: 'reviews', namespace: 'default' });
    expect((body.object.spec as { http: unknown[] }).http).toHaveLength(2);
    expect(body.origin.file).toBe(vsFile);
    expect(body.origin.doc).toBe(0);
    expect(body.version).toBe(7);
  });

  it('400 without or with a malformed path, 404 for an unknown object', () => {
    expect(configObject(ctx, null).status).toBe(400);
    expect(configObject(ctx, '/nope').status).toBe(400);
    const miss = configObject(ctx, '/apis/networking.istio.io/v1/namespaces/default/virtual-service/ratings');
    expect(miss.status).toBe(404);
    expect((miss.body as { error: string }).error).toContain('VirtualService default/ratings');
  });
});

describe('proxySync', () => {
  const id = snapshot.proxies[0]!.id;
  it('an unconnected proxy is computed-only; unknown proxies are 404', () => {
    expect(proxySync(ctx, id).body).toEqual({ proxy: id, connected: false, connections: [] });
    expect(proxySync(ctx, 'nope.default').status).toBe(404);
  });

  it('reads the ADS server syncz entries of that proxy: states, nonces, NACK text and rejected version', () => {
    const entry = {
      proxy: id,
      connection_id: `sidecar~10.0.0.1~${id}~default.svc.cluster.local-1`,
      mode: 'sotw',
      cluster_sent: '4',
      cluster_acked: '3',
      listener_sent: '2',
      listener_acked: '2',
      sync: { cluster: 'ERROR', listener: 'SYNCED', route: 'NOT SENT', endpoint: 'NOT SENT' },
      nacks: { cluster: { nonce: '4', version: '2026-11-22T00:00:00Z/9', message: 'duplicate cluster', code: 3, time: 't' } },
    };
    const other = { ...entry, proxy: 'other.default' };
    const res = proxySync({ ...ctx, sync: () => [entry, other] }, id).body as {
      connected: boolean;
      connections: Array<{ types: unknown[] }>;
    };
    expect(res.connected).toBe(true);
    expect(res.connections).toHaveLength(1);
    expect(res.connections[0]!.types).toEqual([
      { type: 'listener', state: 'SYNCED', sentNonce: '2', ackedNonce: '2' },
      { type: 'route', state: 'NOT SENT' },
      { type: 'cluster', state: 'ERROR', sentNonce: '4', ackedNonce: '3', nack: entry.nacks.cluster },
      { type: 'endpoint', state: 'NOT SENT' },
    ]);
  });
});
