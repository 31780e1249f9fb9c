// The generator registry and the proxy kinds as data: which types each kind is served and what the ADS server
// knows about each type URL, checked against istiod (pkg/model/xds.go GetShortType; pilot/pkg/xds/ads.go
// PushOrder; pkg/xds IsWildcardTypeURL; pilot/pkg/xds/discovery.go generators per NodeType).
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { kindOfNodeType, PROXY_KINDS } from '../model/proxyKinds';
import { orderTypes, shortType } from '../xds/connection';
import { WILDCARD_TYPES } from '../xds/shouldRespond';
import { addressName, GENERATORS, generatorFor, generatorsOf } from './generators';

describe('generator registry', () => {
  it('has exactly one generator per served type URL', () => {
    const urls = GENERATORS.map((g) => g.typeUrl);
    expect(new Set(urls).size).toBe(urls.length);
    for (const u of [TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route, TYPE.address, TYPE.authorization])
      expect(generatorFor(u)?.typeUrl).toBe(u);
    expect(generatorFor(TYPE.secret)).toBeUndefined();
  });

  it('serves Envoy kinds CDS/EDS/LDS/RDS and ztunnel only Address + Authorization (istiod WorkloadGenerator / WorkloadRBACGenerator)', () => {
    for (const k of ['sidecar', 'router', 'waypoint'] as const)
      expect(generatorsOf({ type: k }).map((g) => g.typeUrl)).toEqual([TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route]);
    expect(generatorsOf({ type: 'ztunnel' }).map((g) => g.typeUrl)).toEqual([TYPE.address, TYPE.authorization]);
  });

  it('maps node-id types to kinds (istiod model.NodeType) and nothing else', () => {
    expect(kindOfNodeType('sidecar')).toBe('sidecar');
    expect(kindOfNodeType('router')).toBe('router');
    expect(kindOfNodeType('waypoint')).toBe('waypoint');
    expect(kindOfNodeType('ztunnel')).toBe('ztunnel');
    expect(kindOfNodeType('gateway')).toBeUndefined();
    expect(PROXY_KINDS.router.translator).toBe('gateway');
  });

  it('names Address resources as istiod does: the workload uid, or namespace/hostname for a service', () => {
    expect(addressName({ workload: { uid: 'Kubernetes//Pod/default/a' } })).toBe('Kubernetes//Pod/default/a');
    expect(addressName({ service: { namespace: 'default', hostname: 'reviews.default.svc.cluster.local' } })).toBe(
      'default/reviews.default.svc.cluster.local',
    );
  });
});

describe('type metadata (istiod GetShortType, PushOrder, IsWildcardTypeURL)', () => {
  it('short names', () => {
    expect(shortType(TYPE.address)).toBe('WDS');
    expect(shortType(TYPE.authorization)).toBe('WADS');
    expect(shortType(TYPE.cluster)).toBe('CDS');
  });
  it('pushes CDS, EDS, LDS, RDS, SDS, Address, Authorization in that order', () => {
    expect(orderTypes([TYPE.authorization, TYPE.route, TYPE.address, TYPE.listener, TYPE.endpoint, TYPE.cluster])).toEqual([
      TYPE.cluster,
      TYPE.endpoint,
      TYPE.listener,
      TYPE.route,
      TYPE.address,
      TYPE.authorization,
    ]);
  });
  it('treats CDS, LDS and the Istio-internal types as wildcard types; EDS, RDS and SDS as by-name', () => {
    expect([...WILDCARD_TYPES].sort()).toEqual([TYPE.cluster, TYPE.listener, TYPE.address, TYPE.authorization].sort());
  });
});
