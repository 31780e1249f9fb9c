// /api/demo/traffic without a data plane lists the services a cluster demo can shift: a mesh VirtualService
// whose catch-all http route has two or more weighted destinations (weights over their sum, as
// route.go translateRoute). A single-destination route has nothing to shift and is left out.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot, istio, service } from '../translate/testing/meshBuilder';
import type { TrafficReport } from '../demo/report';
import { demoTraffic } from './demoTraffic';
import { withConfiguredServices } from './demoServices';

const snap = buildSnapshot({
  services: [service('reviews', 'shop'), service('web', 'shop')],
  configs: [
    istio('VirtualService', 'reviews', 'shop', {
      hosts: ['reviews'],
      http: [
        { match: [{ headers: { 'x-user': { exact: 'tester' } } }], route: [{ destination: { host: 'reviews', subset: 'v3' } }] },
        {
          route: [
            { destination: { host: 'reviews', subset: 'v1' }, weight: 3 },
            { destination: { host: 'reviews', subset: 'v2' }, weight: 1 },
          ],
        },
      ],
    }),
    istio('VirtualService', 'web', 'shop', { hosts: ['web'], http: [{ route: [{ destination: { host: 'web' } }] }] }),
  ],
});

describe('withConfiguredServices', () => {
  it('without a data plane: the services with a weighted catch-all route, configured shares, nothing observed', () => {
    const r = withConfiguredServices(demoTraffic(undefined, new URLSearchParams()), snap, DEFAULT_OPTIONS);
    const body = r.body as TrafficReport;
    expect(body.running).toBe(false);
    expect(body.services.map((s) => [s.host, s.port])).toEqual([['reviews.shop.svc.cluster.local', 9080]]);
    const s = body.services[0]!;
    expect(s.virtualService).toMatchObject({ namespace: 'shop', name: 'reviews' });
    expect(s.destinations.map((d) => [d.subset, d.configuredPercent, d.observedPercent, d.requests])).toEqual([
      ['v1', 75, 0, 0],
      ['v2', 25, 0, 0],
    ]);
    expect(s.callers).toEqual([]);
  });

  it('a running data plane’s report and errors pass unchanged', () => {
    const running = { status: 200, body: { running: true, services: [] } as unknown as TrafficReport };
    expect(withConfiguredServices(running, snap, DEFAULT_OPTIONS)).toBe(running);
    const bad = demoTraffic(undefined, new URLSearchParams({ window: '0' }));
    expect(withConfiguredServices(bad, snap, DEFAULT_OPTIONS)).toBe(bad);
  });
});
