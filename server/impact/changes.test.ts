// Store change → ADS push request (istiod: an EDS-only PushRequest for endpoint updates, a full one otherwise).
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { changeEvent, LIST_ALL_LIMIT, pushRequestFor } from './changes';

describe('pushRequestFor', () => {
  it('endpoint-only changes (EndpointSlice, Pod status) push EDS, and to ztunnels their WDS (istiod pushes Address updates for pod changes)', () => {
    const req = pushRequestFor({ version: 4, endpointsOnly: true, changed: ['discovery.k8s.io/v1/EndpointSlice/default/reviews-abc'] });
    // Envoys never watch the WDS types, so for them this is still an EDS-only push.
    expect([...(req.types ?? [])]).toEqual([TYPE.endpoint, TYPE.address, TYPE.authorization]);
    expect(req.proxies).toBe('all');
    expect(req.reason).toContain('endpoints changed');
  });
  it('config changes push every watched type (no type filter)', () => {
    const req = pushRequestFor({ version: 5, endpointsOnly: false, changed: ['a', 'b'] });
    expect(req.types).toBeUndefined();
    expect(req.reason).toBe('config changed (2 objects)');
  });
});

describe('changeEvent (what the live UI is told; no translation)', () => {
  const snapOf = (services: number) => buildSnapshot(generateMesh({ services, namespaces: 2 }), { version: 3 });

  it('names the proxies a change may reach and the types, listing them while the mesh is small', () => {
    const snap = snapOf(4);
    const e = changeEvent(snap, snap, { changed: ['core/v1/Service/ns-0/svc-0'], endpointsOnly: false }, DEFAULT_OPTIONS);
    expect(e.version).toBe(3);
    // svc-0 is public (no exportTo): every proxy may see it (istiod: IsServiceVisible, mesh default "*").
    expect(e.all).toBe(true);
    expect(e.proxies).toEqual(snap.proxies.map((p) => p.id).sort());
    expect(e.types).toEqual(['listeners', 'routes', 'clusters', 'endpoints']);
  });

  it('says "all" compactly (no id list) when every proxy of a large mesh is reached', () => {
    const snap = snapOf(Math.ceil(LIST_ALL_LIMIT / 2) + 1);
    expect(snap.proxies.length).toBeGreaterThan(LIST_ALL_LIMIT);
    const e = changeEvent(snap, snap, { changed: ['core/v1/Namespace//ns-0'], endpointsOnly: false }, DEFAULT_OPTIONS);
    expect(e.all).toBe(true);
    expect(e.proxies).toEqual([]);
  });

  it('an EndpointSlice change is endpoints-only and says so', () => {
    const snap = snapOf(4);
    const e = changeEvent(
      snap,
      snap,
      { changed: ['discovery.k8s.io/v1/EndpointSlice/ns-1/svc-1-x'], endpointsOnly: true },
      DEFAULT_OPTIONS,
    );
    expect(e.endpointsOnly).toBe(true);
    expect(e.types).toEqual(['endpoints']);
  });
});
